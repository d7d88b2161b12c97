/**
 * The go test -bench fixture files the tests beside it read (go-bench, go-bench-text, go-bench-json):
 * the text go test printed, and the output of a go test -json run, test2json's event lines.
 */
export const TEXT = "micro/go/baseline/gobench.txt";
export const JSON_LINES = "micro/go/baseline/gobench.json";
