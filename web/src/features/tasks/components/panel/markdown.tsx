import { createContext, useContext, useLayoutEffect, useMemo, useRef, type ChangeEvent } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { MentionChip } from '../mentions/mention-chip.tsx';
import { remarkMentions } from '../mentions/remark-mentions.ts';
import styles from './markdown.module.css';

/** GitHub's flavour (task lists, tables, strikethrough, autolinks), and `<@uuid>` mentions as chips. */
const REMARK_PLUGINS = [remarkGfm, remarkMentions];

type HastNode = NonNullable<ExtraProps['node']>;

/** The task-list item a checkbox belongs to: where it starts in the source, and its words. */
const TaskItem = createContext<{ offset: number | undefined; label: string } | null>(null);

/** Ticks or unticks the task-list item that starts at `offset` in the source. */
type OnTick = (offset: number, ticked: boolean) => void;

function textOf(node: HastNode | HastNode['children'][number]): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  // A nested list is not part of its parent item's name.
  if (node.tagName === 'ul' || node.tagName === 'ol') return '';
  return node.children.map(textOf).join('');
}

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
  // A mention (remark-mentions.ts made it `<span data-mention>`): its member's current name, as a chip.
  span: ({ node, ...props }) => {
    const userId = node?.properties.dataMention;
    return typeof userId === 'string' ? <MentionChip userId={userId} /> : <span {...props} />;
  },
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
  li: ({ node, ...props }) => {
    const item = node && String(props.className ?? '').includes('task-list-item');
    if (!item) return <li {...props} />;
    return (
      <TaskItem.Provider value={{ offset: node.position?.start.offset, label: textOf(node).trim() }}>
        <li {...props} />
      </TaskItem.Provider>
    );
  },
};

/** A task-list checkbox: ticked by who may edit (`onTick`), read-only otherwise. */
function TaskCheckbox({ checked, onTick }: { checked: boolean; onTick: OnTick | undefined }) {
  const item = useContext(TaskItem);
  const offset = item?.offset;
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    if (onTick && offset !== undefined) onTick(offset, event.currentTarget.checked);
  };
  return (
    <input
      type="checkbox"
      className={styles.checkbox}
      checked={checked}
      disabled={!onTick || offset === undefined}
      aria-label={item?.label || 'Checklist item'}
      onChange={change}
    />
  );
}

/**
 * Markdown someone typed (a description, a comment), rendered as untrusted input: react-markdown builds
 * React elements, never HTML, so `<img onerror=…>` stays text, and its URL transform drops `javascript:`.
 * Images load only from the app's own origin (the page's Content-Security-Policy says the same).
 * Task-list items can be ticked when `onTick` is given (by who may edit the text).
 */
export function Markdown({ children, onTick }: { children: string; onTick?: OnTick }) {
  // The latest `onTick`, behind a stable one: new components would draw the text anew and drop focus.
  const latestTick = useRef(onTick);
  useLayoutEffect(() => {
    latestTick.current = onTick;
  });
  const editable = onTick !== undefined;
  const withCheckboxes = useMemo<Components>(() => {
    const tick: OnTick | undefined = editable
      ? (offset, ticked) => latestTick.current?.(offset, ticked)
      : undefined;
    return {
      ...components,
      input: ({ node: _node, type, checked, ...props }) =>
        type === 'checkbox' ? (
          <TaskCheckbox checked={checked === true} onTick={tick} />
        ) : (
          <input type={type} {...props} />
        ),
    };
  }, [editable]);
  return (
    <div className={styles.markdown}>
      <ReactMarkdown components={withCheckboxes} remarkPlugins={REMARK_PLUGINS}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
