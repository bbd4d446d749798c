import ReactMarkdown, { type Components } from 'react-markdown';
import styles from './markdown.module.css';

const isOwnOrigin = (url: string): boolean => {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
};

// Links leave the app in a new tab and give the page they open no handle on this one.
const ExternalLink: Components['a'] = ({ node: _node, ...props }) => (
  <a {...props} target="_blank" rel="noopener noreferrer" />
);

const components: Components = {
  a: ExternalLink,
  // An image from elsewhere would tell its server who read the task, and when: it is a link instead.
  img: ({ node: _node, src, alt, title }) =>
    typeof src === 'string' && isOwnOrigin(src) ? (
      <img src={src} alt={alt ?? ''} title={title} />
    ) : (
      <a
        href={typeof src === 'string' ? src : undefined}
        title={title}
        target="_blank"
        rel="noopener noreferrer"
      >
        {alt || src}
      </a>
    ),
};

/**
 * Markdown someone typed (a description, a comment), rendered as untrusted input: react-markdown builds
 * React elements, never HTML, so `<img onerror=…>` stays text, and its URL transform drops `javascript:`.
 * Images load only from the app's own origin (the page's Content-Security-Policy says the same).
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className={styles.markdown}>
      <ReactMarkdown components={components}>{children}</ReactMarkdown>
    </div>
  );
}
