/**
 * Projects: the project row and its settings (SLA policy, tokens, gate settings per series), the overview,
 * freshness, the badges' grade and gate and the project's background-job activity.
 *
 * The module's public face: code outside server/services/projects/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { getGateBadge } from "./badge-gate";
export { getBadgeGrade } from "./badge-grade";
export { getJobActivity } from "./job-activity";
export { getProjectOverview } from "./project-overview";
export { createProject, getProjectSettings, getSettingsPage, updateProjectSettings } from "./project-settings";
export { createProjectToken, listProjectTokens, revokeProjectToken } from "./project-tokens";
export { findProject, hasOnlyBenchmarks, listProjectCards, listProjects, projectBySlugSql, requireProject } from "./projects";
export { getProjectSlaPolicy, putSlaPolicy } from "./sla-policy";
