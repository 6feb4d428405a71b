// 把检查的失败说成学习者的话：还没写的空白（TODO）、类型错误指到哪一行、API 少了或变了哪些声明、
// 黄金轨迹第一处不同在哪一步、测试期望什么实际得到什么。不贴 vitest 的原始输出。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { diffReports } from "../api/diff.ts";
import { type ApiReport, ROOT } from "../course.ts";
import { parseMarkdown } from "../markdown.ts";
import { CODE } from "../teaching/glossary.ts";
import type { Trace, TraceMsg, TraceRequest } from "../scenarios/shape.ts";
import type { ErrorInfo } from "./vitest/reporter.ts";

/** 空白处抛出的那句话：`TODO s04: 写出 runEventedToolLoop —— 见 …`。 */
const TODO = /TODO s\d\d: [^"\n\\]*/;

/**
 * 报告里「第一个没过的」那一段：标题一行，下面几行细节。about：这个测试守的规则或决策，用术语表的话说
 * （「R5 循环一定会停」）；scenario：黄金轨迹的场景在演什么；reread：该回头读的 README 那一行（这个测试靠的那一处空白的小节）。
 */
export type Finding = { title: string; lines: string[]; about?: string; scenario?: string; reread?: string };

// ── 规则和决策的编号 → 术语表的话 ─────────────────────────
/** 术语表（GLOSSARY.md）里的编号条目：`**R5 循环一定会停**：…` → R5 → 循环一定会停。 */
const ENTRY = /^(R\d|U\d|D\d{1,3}|F\d{1,3}) (.+)$/;
let glossary: Map<string, string> | undefined;
export function glossaryWords(text: string = readFileSync(join(ROOT, "GLOSSARY.md"), "utf8")): Map<string, string> {
  const words = new Map<string, string>();
  for (const node of parseMarkdown(text).children) {
    if (node.type !== "paragraph") continue;
    // 条目前面紧挨着一行锚点 `<a id="r5"></a>`：它和条目在同一段里，跳过它才是加粗的编号
    const lead = node.children.find((c) => c.type !== "html" && !(c.type === "text" && c.value.trim() === ""));
    if (lead?.type !== "strong") continue;
    const m = ENTRY.exec(lead.children.map((c) => ("value" in c ? c.value : "")).join("").trim());
    if (m) words.set(m[1], m[2]);
  }
  return words;
}

/**
 * 测试名里点到的规则、决策（`R4 第 1 类：…`、`recordToolCalls（D41）：…`），写成术语表的话：
 * 「R4 错误不崩溃；D41 …」。没点到、或术语表里没有的编号，就不说。
 */
export function ruleWords(testName: string, words: ReadonlyMap<string, string> = (glossary ??= glossaryWords())): string | undefined {
  // 编号的写法和课文、术语表的检查同一个（tooling/teaching/glossary.ts 的 CODE）
  const codes = [...new Set([...testName.matchAll(CODE)].map((m) => m[1]))];
  const known = codes.filter((c) => words.has(c)).map((c) => `${c} ${words.get(c)}`);
  return known.length === 0 ? undefined : known.join("；");
}

// ── 不给学习者看的东西 ───────────────────────────────────
/** 维护者的命令（会拿学习者的错去覆盖参考答案）和测试框架的名字：练习的报告里一律不出现。 */
const MAINTAINER = /npm run gen|npm test|vitest|npx /i;
/** 调用栈的一行：`    at foo (file.ts:1:2)`。 */
const STACK = /^\s*at .+(\(|:\d+:\d+)/;

/**
 * 给学习者的一行：去掉调用栈；提到维护者命令的分句（以 ; 或 ；、。分开）整句拿掉，一句不剩就是 undefined。
 * 例：golden.test.ts 的 `trace differs from tests/golden; if the change is intended, run npm run gen:golden …`
 * 只留 `trace differs from tests/golden`。
 */
export function forLearner(line: string): string | undefined {
  if (STACK.test(line)) return undefined;
  if (!MAINTAINER.test(line)) return line;
  const kept = line.split(/(?<=[;；。])\s*/).filter((part) => !MAINTAINER.test(part));
  const text = kept.join(" ").replace(/[;；]\s*$/, "").trimEnd();
  return text.trim() === "" ? undefined : text;
}

/** 卡住了（测试或演示停不下来）时给学习者的那句话。 */
export const HANG_HINT = "多半是哪个循环停不下来，或者在等一个永远不会来的结果（await 了一个永远不 resolve 的 Promise）。";

/** 在一段文字（错误信息、实际值、stderr）里找学习者还没写的空白。 */
export function findTodo(...texts: (string | undefined)[]): string | undefined {
  for (const t of texts) {
    const m = t === undefined ? null : TODO.exec(t);
    if (m) return m[0].trim();
  }
  return undefined;
}

/** 一处空白 → 「还没写」加提示（TODO 那句话里 —— 后面就是提示）。 */
export function todoLines(todo: string): string[] {
  const [what, hint] = todo.split(" —— ");
  return [`还空着：${what.replace(/^TODO (s\d\d): /, "")}（${/^TODO (s\d\d)/.exec(todo)?.[1]} 的 TODO）`, ...(hint === undefined ? [] : [`提示：${hint}`])];
}

const clip = (text: string, max = 160): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// ── 类型检查 ─────────────────────────────────────────────
/** `practice/s04_x/code.ts:131:5 TS2322: …` → 出错的那一行、指到列的 ^，再加 TS 的原话。 */
export function diagnosticLines(diagnostic: string, source: string): string[] {
  const m = /^(.*?):(\d+):(\d+) (TS\d+): (.*)$/s.exec(diagnostic);
  if (!m) return [diagnostic];
  const line = Number(m[2]);
  const col = Number(m[3]);
  const text = source.split("\n")[line - 1] ?? "";
  const gutter = String(line).length;
  return [`第 ${line} 行，第 ${col} 列：${m[4]} ${clip(m[5], 240)}`, `  ${line} | ${text}`, `  ${" ".repeat(gutter)} | ${" ".repeat(Math.max(0, col - 1))}^`];
}

// ── API 报告 ─────────────────────────────────────────────
/** report key 的声明名：`ToolRegistry#run` → ToolRegistry，`ProviderEvent|[type="x"]` → ProviderEvent。 */
const declOf = (key: string): string => /^[A-Za-z_$][\w$]*/.exec(key)?.[0] ?? key;

export type ApiMismatch = { missing: string[]; changed: { key: string; expected: string; actual: string }[]; extra: string[] };

/**
 * 学习者文件的 API 报告和这一课的比（差异照样由 tooling/api/diff.ts 的 diffReports 算）：少了的、变了的、多出来的导出声明。
 * 多出来的未导出声明（自己写的辅助函数）不算，它们不进任何一课的 API。
 */
export function apiMismatch(expected: ApiReport, actual: ApiReport): ApiMismatch {
  const diff = diffReports(expected, actual);
  return {
    missing: diff.removed.map((c) => c.key),
    changed: diff.changed.map((c) => ({ key: c.key, expected: c.from, actual: c.to ?? "" })),
    extra: diff.added.filter((k) => declOf(k) in expected || actual[declOf(k)]?.startsWith("export ") === true),
  };
}

/** API 对不上时给学习者的几行：少了、变了、多了什么，每种最多六处。 */
export function apiMismatchLines(diff: ApiMismatch): string[] {
  const lines: string[] = [];
  // 整个声明都没了，只说声明名，不逐个列它的成员
  const goneDecls = new Set(diff.missing.filter((k) => k === declOf(k)));
  const missing = diff.missing.filter((k) => k === declOf(k) || !goneDecls.has(declOf(k)));
  for (const k of missing.slice(0, 6)) lines.push(`少了：${k}`);
  for (const c of diff.changed.slice(0, 6)) lines.push(`变了：${c.key}`, `  应为 ${clip(c.expected)}`, `  现在 ${clip(c.actual)}`);
  // 多出来的也按声明说：整个声明是多的就只说一次
  const extra = [...new Set(diff.extra.map((k) => (diff.extra.includes(declOf(k)) ? declOf(k) : k)))];
  for (const k of extra.slice(0, 6)) lines.push(k === declOf(k) ? `多了：${k}（导出的声明，这一课没有它）` : `多了：${k}`);
  const shown = Math.min(missing.length, 6) + Math.min(diff.changed.length, 6) + Math.min(extra.length, 6);
  const total = missing.length + diff.changed.length + extra.length;
  if (total > shown) lines.push(`……还有 ${total - shown} 处`);
  lines.push("签名、类型和 @since 标签照这一课的 code.ts 写；自己加的辅助函数别 export 就行。");
  return lines;
}

// ── 测试失败 ─────────────────────────────────────────────
/** 一个没过的行为测试：测试名就是它期望的行为；再加期望值、实际值各几行。 */
export function testLines(errors: readonly ErrorInfo[]): string[] {
  const e = errors[0];
  if (e === undefined) return ["（没有错误信息）"];
  const todo = findTodo(e.message, e.actual, e.stack);
  if (todo !== undefined) return todoLines(todo);
  const timeout = /Test timed out in (\d+)ms/.exec(e.message);
  if (timeout) return [`超时：${Number(timeout[1]) / 1000} 秒还没跑完（是不是在等一个永远不会来的结果？）`];
  // fast-check 的性质：先说它随机生成的哪个输入出了事，再说那一次没满足的断言
  const counterexample = /^Counterexample: (.*)$/m.exec(e.message);
  if (/^Property failed/.test(e.message) && counterexample) {
    return [`随机生成的输入里，这一个不行：${clip(counterexample[1], 240)}`, ...(e.cause === undefined ? [] : testLines([e.cause]))];
  }
  const lines = [`没满足：${clip(e.message.split("\n")[0] ?? "", 240)}`];
  // vitest 的 diff（- 期望，+ 实际）里第一处不同最说明问题：只留那几行和它前面一行
  const diff = (e.diff ?? "").split("\n").filter((l) => !/^[-+] (Expected|Received):?\s*$/.test(l) && l.trim() !== "");
  const at = diff.findIndex((l) => /^[-+]/.test(l));
  if (at >= 0) {
    let end = at;
    while (end < diff.length && /^[-+]/.test(diff[end]) && end - at < 10) end++;
    lines.push("期望（-）和实际（+）：", ...diff.slice(Math.max(0, at - 1), end).map((l) => `  ${clip(l)}`), ...(end < diff.length ? ["  …"] : []));
    return lines;
  }
  const show = (label: string, value: string | undefined): void => {
    if (value === undefined) return;
    const rows = value.split("\n");
    lines.push(`${label}${clip(rows[0] ?? "")}`, ...rows.slice(1, 8).map((r) => `      ${clip(r)}`), ...(rows.length > 8 ? ["      …"] : []));
  };
  // `expected … to throw` 这类断言的期望/实际只是 null、undefined，说明不了什么
  if (![e.expected, e.actual].every((v) => v === undefined || v === "null" || v === "undefined")) {
    show("期望：", e.expected);
    show("实际：", e.actual);
  }
  return lines;
}

// ── 黄金轨迹 ─────────────────────────────────────────────
/** 一个值：文字放在「」里原样显示（行首的空格也看得见），别的写成 JSON。 */
const show = (v: unknown): string => (v === undefined ? "（没有）" : clip(typeof v === "string" ? `「${v.replaceAll("\n", "\\n")}」` : JSON.stringify(v)));

const msgText = (m: TraceMsg | undefined): string =>
  m === undefined ? "（没有）" : `${m.role}${m.toolCallId !== undefined ? `(${m.toolCallId})` : ""}${m.stopReason !== undefined ? `[${m.stopReason}]` : ""} ${show(m.content)}`;

/** 两串东西第一处不同的位置；一样就是 -1。 */
const firstDiff = (a: readonly unknown[], b: readonly unknown[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i;
  return -1;
};

/** 轨迹的字段，按学习者最容易看懂的顺序：先看每一步的结果，再看存下的消息、发给模型的请求、写出的行。 */
const FIELDS: (keyof Trace)[] = ["steps", "messages", "requests", "output", "events", "errors", "path", "tree"];

/**
 * 黄金轨迹第一处不同，说成一步：「第 2 步 loop "go"：期望 … 实际 …」。field 是测试点名的字段（后面的课
 * 跑前面的场景时，golden.test.ts 的错误信息里有）；没给就找第一个不同的字段。
 */
export function traceLines(golden: Trace, actual: Trace, field?: keyof Trace): string[] {
  const first = field ?? FIELDS.find((k) => JSON.stringify(golden[k]) !== JSON.stringify(actual[k]));
  // 一步的回答收尾没错、只是文字不同，多半只是后果：存下的消息才说得出哪一步做错了（比如调用不该跑却跑了）
  const f = first === "steps" && onlyTextDiffers(golden, actual) && JSON.stringify(golden.messages) !== JSON.stringify(actual.messages) ? "messages" : first;
  const plain = f === undefined ? undefined : plainWords(golden, actual, f);
  const lines = detailLines(golden, actual, f);
  return plain === undefined ? lines : [plain, ...lines];
}

/** 一步的结果：`turn "go" → assistant[stop]: 好` → stopReason 和文字；不是一条回答就是 undefined。 */
const answerOf = (step: unknown): { stop: string; text: string } | undefined => {
  const m = typeof step === "string" ? / → assistant\[(\w+)\]: ([\s\S]*)$/.exec(step) : null;
  return m ? { stop: m[1], text: m[2] } : undefined;
};

/** 第一处不同的那一步，两边的回答以同样的 stopReason 收尾，只是文字不一样。 */
function onlyTextDiffers(golden: Trace, actual: Trace): boolean {
  const i = firstDiff(golden.steps, actual.steps);
  const [g, a] = [answerOf(golden.steps[i]), answerOf(actual.steps[i])];
  return i >= 0 && g !== undefined && a !== undefined && g.stop === a.stop;
}

/**
 * 第一处不同说成一句人话，只说数据里看得出来的：「第 2 条消息：回答以 stop 结束，调用却照样跑了」。
 * 看不出来（比如只是文字不同）就说哪里不同；说不准就是 undefined，只列期望和实际。
 */
export function plainWords(golden: Trace, actual: Trace, f: keyof Trace): string | undefined {
  const g = (golden[f] ?? []) as unknown[];
  const a = (actual[f] ?? []) as unknown[];
  const i = firstDiff(g, a);
  if (i < 0) return undefined;
  if (f === "steps") {
    const [ga, aa] = [answerOf(g[i]), answerOf(a[i])];
    if (ga === undefined || aa === undefined) return undefined;
    if (ga.stop !== aa.stop) return `第 ${i + 1} 步：回答应该以 ${ga.stop} 结束，实际以 ${aa.stop} 结束`;
    return `第 ${i + 1} 步：回答以 ${ga.stop} 结束，没错，但文字不一样`;
  }
  if (f === "messages" || f === "path") {
    const [gm, am, before] = [g[i] as TraceMsg | undefined, a[i] as TraceMsg | undefined, a[i - 1] as TraceMsg | undefined];
    const at = `第 ${i + 1} 条消息`;
    if (am?.role === "toolResult" && gm?.role !== "toolResult" && before?.role === "assistant" && before.stopReason !== "toolUse") {
      return `${at}：回答以 ${before.stopReason ?? "stop"} 结束，调用却照样跑了（多存了一条工具结果）`;
    }
    if (gm?.role === "toolResult" && am?.role !== "toolResult") return `${at}：回答要了工具，这里该有它的结果，实际${am === undefined ? "什么都没存" : `存的是一条 ${am.role}`}`;
    if (gm === undefined) return `${at}：不该有这条消息，实际多存了一条 ${am?.role}`;
    if (am === undefined) return `${at}：该存一条 ${gm.role}，实际没存`;
    if (gm.role !== am.role) return `${at}：该存一条 ${gm.role}，实际存的是一条 ${am.role}`;
    if (gm.stopReason !== am.stopReason) return `${at}：回答应该以 ${gm.stopReason} 结束，实际以 ${am.stopReason} 结束`;
    if (gm.toolCallId !== am.toolCallId) return `${at}：工具结果对应的调用 id 不对`;
    return `${at}：${gm.role} 的内容不一样`;
  }
  if (f === "requests" && g.length !== a.length && i >= Math.min(g.length, a.length)) {
    return g.length < a.length ? `模型被多问了 ${a.length - g.length} 次（应问 ${g.length} 次）` : `少问了模型 ${g.length - a.length} 次（应问 ${g.length} 次）`;
  }
  return undefined;
}

/** 第一处不同的期望和实际。 */
function detailLines(golden: Trace, actual: Trace, f: keyof Trace | undefined): string[] {
  if (f === undefined) return ["轨迹和黄金文件一样（测试没过的原因在别处）"];
  const g = (golden[f] ?? []) as unknown[];
  const a = (actual[f] ?? []) as unknown[];
  const i = firstDiff(g, a);
  const lines = (label: string, exp: string, act: string): string[] => [label, `  期望：${exp}`, `  实际：${act}`];
  if (f === "steps") {
    const verb = (s: unknown): string => (typeof s === "string" ? s.split(" → ")[0] : "");
    const result = (s: unknown): string => (typeof s === "string" ? (s.split(" → ")[1] ?? "（完成）") : "（没有这一步）");
    const todo = findTodo(String(a[i] ?? ""));
    if (todo !== undefined) return [`第 ${i + 1} 步 ${verb(g[i] ?? a[i])}`, ...todoLines(todo)];
    return lines(`第 ${i + 1} 步 ${verb(g[i] ?? a[i])}`, result(g[i]), result(a[i]));
  }
  if (f === "messages" || f === "path") {
    const where = f === "messages" ? "存下的" : "当前路径上的";
    const todo = findTodo(JSON.stringify(a[i] ?? ""));
    if (todo !== undefined) return [`${where}第 ${i + 1} 条消息`, ...todoLines(todo)];
    return lines(`${where}第 ${i + 1} 条消息（一共应有 ${g.length} 条，实际 ${a.length} 条）`, msgText(g[i] as TraceMsg), msgText(a[i] as TraceMsg));
  }
  if (f === "requests") {
    const gr = g[i] as TraceRequest | undefined;
    const ar = a[i] as TraceRequest | undefined;
    const label = `provider 收到的第 ${i + 1} 次请求（一共应有 ${g.length} 次，实际 ${a.length} 次）`;
    if (gr === undefined || ar === undefined) return lines(label, show(gr?.messages), show(ar?.messages));
    const k = firstDiff(gr.messages, ar.messages);
    if (k >= 0) return lines(`${label}的第 ${k + 1} 条消息`, show(gr.messages[k]), show(ar.messages[k]));
    if (JSON.stringify(gr.tools) !== JSON.stringify(ar.tools)) return lines(`${label}的工具清单`, show(gr.tools), show(ar.tools));
    return lines(`${label}的系统提示`, show(gr.systemPrompt), show(ar.systemPrompt));
  }
  const names: Record<string, string> = { output: "Output 写出的", events: "运行时广播的", errors: "扩展记下的", tree: "renderTree 画出的" };
  return lines(`${names[f] ?? f}第 ${i + 1} 行（一共应有 ${g.length} 行，实际 ${a.length} 行）`, show(g[i]), show(a[i]));
}
