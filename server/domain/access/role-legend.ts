import type { ProjectRole, ProjectVisibility } from "./roles";
import { ACTION_WORDS, PROJECT_ACTIONS, PROJECT_ROLES, roleAllows } from "./roles";

/**
 * What Settings says about roles and visibility, derived from the rules themselves (roles.ts), never a
 * hand-kept copy: a role's legend is the words of every action it may do.
 */

/** Each role with what it may do, in words ("read this project", "triage incidents", …), least first. */
export function roleLegend(): { role: ProjectRole; may: string[] }[] {
  return PROJECT_ROLES.map((role) => ({ role, may: PROJECT_ACTIONS.filter((action) => roleAllows(role, action)).map((action) => ACTION_WORDS[action]) }));
}

/** Who may read a project of each visibility, in a sentence. */
export const VISIBILITY_WORDS: Record<ProjectVisibility, string> = {
  public: "Anyone can read this project.",
  private: "Only its members, the read token, its tokens with the read scope and share links can read it.",
};
