/**
 * Which pull-request comment a run belongs to. CI keeps one living comment per pull request and per
 * series (docs/ci.md): each push's upload updates it in place, found again by a hidden HTML comment,
 * the marker, that ends the upload's Markdown answer.
 *
 * The series is what a run's baseline is chosen by, its tool, label and testbed (the same grouping as
 * change-point detection), so two suites of one job (k6 "smoke" and k6 "soak", or k6 and Locust), or one
 * benchmark suite on two testbeds, get a comment each, and every push of one suite lands in the same one.
 */

export interface PrCommentIdentity {
  /**
   * `<tool>:<label>`, each part URI-encoded (no label: empty), e.g. `k6:baseline`; with a testbed,
   * `<tool>:<label>:<testbed>` (a run naming none keeps the two-part series it always had).
   */
  series: string;
  /** `<!-- benchtrack:<project>:<series> -->`: an HTML comment, invisible once rendered. */
  marker: string;
}

/**
 * Parts are URI-encoded: `:` cannot be mistaken for the separator, and `>` (as `%3E`) cannot close the
 * HTML comment early, whatever a label says (`-->` stays inside it as `--%3E`).
 */
const part = (text: string) => encodeURIComponent(text);

export function prCommentIdentity(
  projectSlug: string,
  run: { tool: string; label: string | null; testbed?: string | null },
): PrCommentIdentity {
  const series = `${part(run.tool)}:${part(run.label ?? "")}${run.testbed ? `:${part(run.testbed)}` : ""}`;
  return { series, marker: `<!-- benchtrack:${part(projectSlug)}:${series} -->` };
}
