// Types of commit-status.mjs (plain JavaScript, so that CI runs it with Node alone), for its tests.
export declare const DESCRIPTION_LIMIT: number;
export declare const TARGET_URL_LIMIT: number;

export interface CommitStatus {
  state: "success" | "failure";
  /** `benchtrack/<project>/<series>`; null when the marker is not one. */
  context: string | null;
  description: string;
  targetUrl: string | null;
}

export interface GateAnswer {
  outcome?: string;
  verdict?: string;
  url?: string;
  reasons?: string[];
  failOn?: string[];
  comment: { marker: string; markdown: string };
}

export declare function statusContext(marker: string | null | undefined): string | null;
export declare function truncate(text: string, limit: number): string;
export declare function commitStatusOf(answer: GateAnswer, settings: { inconclusive: "pass" | "fail" }): CommitStatus;
