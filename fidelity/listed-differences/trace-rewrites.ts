// 比轨迹的差异行（trace-rows.ts）认样子时用的小函数：把两边的参数校验错误拆成同一份问题清单，
// 挑出两边同一位置、回答同一个调用的工具结果，写出课程的钩子出岔子时的原话，对齐调用方看到的一行。

import { type Entry, type FidelityTrace, rewritePairs } from "../compare.ts";

/** 一条校验问题的统一写法：`missing text`、`unknown file`、`not a string text`。 */
type Problem = string;

/** Pi：`Validation failed for tool "echo":\n  - text: missing\n  - file: unknown field\n\nReceived arguments:…` */
export function piValidationProblems(text: string): { tool: string; problems: Problem[] } | undefined {
  const match = /^Validation failed for tool "([^"]+)":\n((?: {2}- [^\n]*\n?)+)/.exec(text);
  if (match === null) return undefined;
  const problems = match[2]
    .split("\n")
    .filter((line) => line.startsWith("  - "))
    .map((line) => {
      const [, path, message] = /^ {2}- ([^:]+): (.*)$/.exec(line) ?? ["", "?", line];
      if (message === "missing") return `missing ${path}`;
      if (message === "unknown field") return `unknown ${path}`;
      if (message.startsWith("expected string")) return `not a string ${path}`;
      return `${path}: ${message}`;
    });
  return { tool: match[1], problems: problems.sort() };
}

/** 课程（D18）：`invalid arguments for tool "echo": argument "text" is missing; unexpected argument "file"` */
export function miniValidationProblems(text: string): { tool: string; problems: Problem[] } | undefined {
  const match = /^invalid arguments for tool "([^"]+)": (.+)$/s.exec(text);
  if (match === null) return undefined;
  const problems = match[2].split(/; |, /).map((part) => {
    const missing = /^argument "(.+)" is missing$/.exec(part);
    if (missing) return `missing ${missing[1]}`;
    const unknown = /^unexpected argument "(.+)"$/.exec(part);
    if (unknown) return `unknown ${unknown[1]}`;
    const notString = /^argument "(.+)" must be a string$/.exec(part);
    if (notString) return `not a string ${notString[1]}`;
    return part;
  });
  return { tool: match[1], problems: problems.sort() };
}

export const canonicalValidation = (v: { tool: string; problems: Problem[] }): string => `invalid arguments for tool "${v.tool}": ${v.problems.join("; ")}`;

type ToolResultEntry = Extract<Entry, { role: "toolResult" }>;

/** 两边同一位置都是出错的工具结果、回答同一个调用时，才交给 f 看文字。 */
export const errorResults =
  (f: (p: ToolResultEntry, m: ToolResultEntry) => [Entry, Entry] | undefined) =>
  (p: Entry, m: Entry): [Entry, Entry] | undefined =>
    p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && p.isError && m.isError ? f(p, m) : undefined;

/** 两边同一位置、回答同一个调用的结果：Pi 的没出错，课程的出错且文字是 miniText 认得的样子时，课程一边换成 Pi 的。 */
export const okVersusError =
  (miniText: (text: string) => boolean, piOk: (p: ToolResultEntry) => boolean = (p) => !p.isError) =>
  (p: Entry, m: Entry): [Entry, Entry] | undefined =>
    p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && piOk(p) && m.isError && miniText(m.text) ? [p, { ...p, at: m.at }] : undefined;

/** D28：课程的钩子答得不成样子时的结果文字（去掉 `error: ` 之后），got 是 describeValue 写出的收到了什么。 */
export const beforeHookFailed = (got: string): string => `hook failed: beforeToolCall returned ${got}, expected {type: "allow"} or {type: "block", reason}`;
export const afterHookFailed = (got: string): string => `hook failed: afterToolCall returned ${got}, expected a string`;

/** 调用方的一行：Pi 是 piLine、课程是 miniLine 时，课程一边换成 Pi 的（只认这两种样子）。 */
export const callerSaw = (piLine: (text: string) => boolean, miniLine: string) => (pi: FidelityTrace, mini: FidelityTrace) =>
  rewritePairs(pi, mini, (p, m) => (p.role === "caller" && m.role === "caller" && piLine(p.text) && m.text === miniLine ? [p, { ...p, at: m.at }] : undefined));
