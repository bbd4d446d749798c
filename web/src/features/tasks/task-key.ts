/** The project key in a task key: `WEB` of `WEB-12`. */
export function projectKeyOf(taskKey: string): string {
  return taskKey.slice(0, taskKey.lastIndexOf('-'));
}
