/** A class name, or a falsy value from a condition (`isActive && "font-bold"`), which is skipped. */
export type ClassValue = string | false | null | undefined | 0;

/**
 * Joins the truthy class names with single spaces. Deliberately tiny: no Tailwind conflict merging,
 * so later classes do not silently override earlier ones; write the classes you mean.
 */
export function cn(...classes: readonly ClassValue[]): string {
  return classes.filter((value): value is string => typeof value === "string" && value.trim() !== "").join(" ");
}
