/**
 * Apache JMeter results (JTL) as XML (`jmeter.save.saveservice.output_format=xml`): one element per
 * sample. What is made of the samples: `jmeter-tally.ts`.
 *
 * XML: `<testResults version="1.2">` holding `<httpSample>` / `<sample>` elements with attributes t
 * (elapsed ms), ts (epoch ms), s (success), lb (label), rc, rm, na (all active threads), sc (sample count),
 * hn (host); the URL in a `<java.net.URL>` child and failure messages in `<assertionResult>` children.
 * Samples nested in a sample (embedded resources, redirects, a transaction's children) are its
 * sub-results, already inside the parent's time: not counted. Read with sax, streaming, in strict mode.
 */
import sax from "sax";
import type { ParsedRun } from "../../run";
import {
  epochMsOf,
  JtlTally,
  malformed,
  optionalWholeNumberOf,
  successOf,
  wholeNumberOf,
  type JtlSample,
} from "./jmeter-tally";

const SAMPLE_ELEMENTS = new Set(["httpSample", "sample"]);

export function parseJmeterXml(text: string, source: string): ParsedRun {
  const tally = new JtlTally();
  const parser = sax.parser(true, { position: true });
  const where = (): string => `${source}: line ${parser.line + 1}`;
  const open: string[] = [];
  let current: { sample: JtlSample; where: string } | null = null;
  let assertion = { failed: false, message: "" };
  let elementText = "";
  let codesKnown = false;
  const seen = { root: false };

  parser.onopentag = (tag) => {
    const depth = open.length;
    open.push(tag.name);
    elementText = "";
    const attribute = (name: string): string | undefined => {
      const value = tag.attributes[name];
      return typeof value === "string" ? value : value?.value;
    };
    if (depth === 0 && tag.name !== "testResults")
      throw malformed(where(), `expected a JMeter <testResults> root element, got <${tag.name}>`);
    seen.root = true;
    if (depth === 1 && SAMPLE_ELEMENTS.has(tag.name)) {
      codesKnown ||= attribute("rc") !== undefined;
      current = { sample: sampleOfElement(tag.name, attribute, where()), where: where() };
    } else if (depth >= 2 && current && SAMPLE_ELEMENTS.has(tag.name)) tally.countSubSample();
    else if (depth === 2 && tag.name === "assertionResult") assertion = { failed: false, message: "" };
  };
  parser.ontext = (chunk) => {
    elementText += chunk;
  };
  parser.oncdata = (chunk) => {
    elementText += chunk;
  };
  parser.onclosetag = (name) => {
    open.pop();
    const depth = open.length; // of the element just closed
    if (!current) return;
    if (depth === 1) {
      tally.add(current.sample, current.where);
      current = null;
    } else if (depth === 2 && name === "java.net.URL") current.sample.url = elementText.trim();
    else if (depth === 2 && name === "assertionResult" && assertion.failed && current.sample.failureMessage === "") {
      current.sample.failureMessage = assertion.message;
    } else if (depth === 3 && open[2] === "assertionResult") {
      if ((name === "failure" || name === "error") && elementText.trim() === "true") assertion.failed = true;
      if (name === "failureMessage") assertion.message = elementText.trim();
    }
  };

  // sax reports syntax errors (and a file cut short, at close()) here; its message ends with its own position.
  parser.onerror = (error) => {
    throw malformed(where(), `invalid XML: ${error.message.split("\n")[0] ?? error.message}`);
  };
  parser.write(text).close();
  if (!seen.root) throw malformed(`${source}: line 1`, "no <testResults> element");
  return tally.toRun("jmeter-xml", source, codesKnown);
}

function sampleOfElement(element: string, attribute: (name: string) => string | undefined, where: string): JtlSample {
  const required = (name: string, meaning: string): string => {
    const value = attribute(name);
    if (value === undefined) throw malformed(where, `<${element}> without its ${name} attribute (${meaning})`);
    return value;
  };
  return {
    label: required("lb", "label"),
    timeStampMs: epochMsOf(required("ts", "timestamp"), "ts", where),
    elapsedMs: wholeNumberOf(required("t", "elapsed time"), "t", where),
    success: successOf(required("s", "success flag"), "s", where),
    responseCode: attribute("rc") ?? "",
    responseMessage: attribute("rm") ?? "",
    failureMessage: "",
    url: "",
    httpElement: element === "httpSample",
    allThreads: optionalWholeNumberOf(attribute("na") ?? "", "na", where),
    sampleCount: optionalWholeNumberOf(attribute("sc") ?? "", "sc", where),
    hostname: attribute("hn") ?? "",
  };
}
