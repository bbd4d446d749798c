import { Dialog } from '../../../components/ui/dialog.tsx';
import styles from './attachments.module.css';

interface LightboxProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  src: string;
}

/** An image as large as the screen allows, over everything (Radix dialog: Esc and the close button). */
export function Lightbox({ open, onOpenChange, title, src }: LightboxProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} variant="lightbox">
      <img className={styles.lightboxImage} src={src} alt={title} />
    </Dialog>
  );
}
