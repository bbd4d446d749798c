interface LabelUsageProps {
  /** How many tasks have the label, once counted. */
  count: number | undefined;
  error: boolean;
}

/** The sentence the delete dialog shows about a label's tasks. */
export function LabelUsage({ count, error }: LabelUsageProps) {
  if (error) return <>How many tasks use this label could not be counted.</>;
  if (count === undefined) return <>Counting the tasks that use this label…</>;
  if (count === 0) return <>No task uses this label.</>;
  return <>{count === 1 ? '1 task uses this label.' : `${count} tasks use this label.`}</>;
}
