import ReactMarkdown, { type Components } from 'react-markdown';
import styles from './markdown.module.css';

// Links leave the app in a new tab and give the page they open no handle on this one.
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

/**
 * Markdown someone typed (a description, a comment), rendered as untrusted input: react-markdown builds
 * React elements, never HTML, so `<img onerror=…>` stays text, and its URL transform drops `javascript:`.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className={styles.markdown}>
      <ReactMarkdown components={components}>{children}</ReactMarkdown>
    </div>
  );
}
