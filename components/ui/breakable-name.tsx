import type { ReactNode } from "react";

/**
 * A name that may wrap after each "/" and " > " ("example.com/" "microbench > " "BenchmarkSortInts/"
 * "n=100") rather than inside a word, or be cut: names of one package or service share a long prefix, and
 * their ends tell them apart.
 */
export function BreakableName({ name }: { name: string }): ReactNode {
  const parts = name.split(/(?<=\/|> )/);
  return parts.flatMap((part, index) => (index === parts.length - 1 ? [part] : [part, <wbr key={index} />]));
}
