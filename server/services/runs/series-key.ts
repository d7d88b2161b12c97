/**
 * A series' key on the default branch (tool, label and testbed): its waiting detection job's singletonKey
 * and the advisory lock detection takes. Here, below both, so the upload (ingest) and detection
 * (incidents) name a series the same way without the upload importing the regression detector.
 */
export function defaultBranchSeriesKey(run: { projectId: string; tool: string; label: string | null; testbed?: string | null }): string {
  return JSON.stringify([run.projectId, run.tool, run.label, ...(run.testbed ? [run.testbed] : [])]);
}
