// graduation/README.md 该是什么样子，读成几条能核对的事实（都在 Markdown 语法树上读，tooling/markdown.ts）：
// 开头和各节的顺序、对照表（每一课一行，中间一栏的名字都得在 Pi 1.6.0 里有）、三个练习各一小节、
// 试一下的命令和输出、最后一节以那一条 pi -e 命令和「你应该看到」收尾。npm test 查结构和名字，真实 Pi 的证明查输出和命令行选项。

import type { Code, List, RootContent, TableRow } from "mdast";
import { toString } from "mdast-util-to-string";
import { inlineLines, lineOf, parseReadme, tableRows } from "../markdown.ts";
import { EXERCISES } from "./exercises.ts";

export const GRADUATION_SECTIONS = ["问题", "对照表", "三个练习", "试一下", "装进你自己的 pi"] as const;
const MAP = "对照表";
const LAST = GRADUATION_SECTIONS[GRADUATION_SECTIONS.length - 1];

/** 对照表的一行：哪一课（链到它的文件夹）、mini Pi 一栏和 Pi 一栏里的行内代码。 */
export type MapRow = { line: number; link: string | undefined; mini: string[]; pi: string[] };

const cellCode = (row: TableRow, i: number): string[] => {
  const cell = row.children[i];
  return cell === undefined ? [] : inlineLines(cell).flatMap((l) => l.pieces.filter((p) => p.code).map((p) => p.value));
};
const cellLink = (row: TableRow): string | undefined => {
  const first = row.children[0]?.children.find((c) => c.type === "link");
  return first?.type === "link" ? first.url : undefined;
};

export function mapRows(readme: string): MapRow[] {
  const section = parseReadme(readme).sections.find((s) => s.name === MAP);
  return tableRows(section?.nodes ?? []).slice(1).map((row) => ({ line: lineOf(row), link: cellLink(row), mini: cellCode(row, 1), pi: cellCode(row, 2) }));
}

/** Pi 一栏里的一段行内代码是什么：事件名（`"tool_call"`）、命令行（`pi -p "…"`），或者 Pi 的名字（`ExtensionAPI.registerTool`）。 */
export type PiSpan = { kind: "literal"; value: string } | { kind: "cli"; flags: string[] } | { kind: "name"; value: string };

export function classifyPiSpan(text: string): PiSpan {
  const t = text.trim();
  const quoted = /^"([^"]+)"$/.exec(t);
  if (quoted !== null) return { kind: "literal", value: quoted[1] as string };
  if (t === "pi" || t.startsWith("pi ")) return { kind: "cli", flags: t.split(/\s+/).filter((w) => /^-{1,2}[a-z]/.test(w)) };
  return { kind: "name", value: t.split(".").slice(0, 2).join(".") };
}

/** 核对名字用的：Pi 的名字和事件名在不在 Pi 1.6.0 里，mini Pi 的名字在不在 s12 里。 */
export type MapLookup = { piName(name: string): boolean; piLiteral(value: string): boolean; courseName(name: string): boolean };

/** 对照表的问题：每一课一行、按顺序链到那一课；Pi 一栏的名字和事件名都在 Pi 1.6.0 里；mini Pi 一栏的名字都在 s12 里。 */
export function mapProblems(readme: string, lookup: MapLookup, lessons: readonly { id: string; dir: string }[]): string[] {
  const rows = mapRows(readme);
  const out: string[] = [];
  if (rows.length !== lessons.length) out.push(`对照表有 ${rows.length} 行，课有 ${lessons.length} 节`);
  rows.forEach((row, i) => {
    const lesson = lessons[i];
    if (lesson !== undefined && row.link !== `../${lesson.dir}/README.md`) out.push(`对照表第 ${i + 1} 行（第 ${row.line} 行）没链到 ../${lesson.dir}/README.md`);
    if (row.pi.length === 0) out.push(`对照表第 ${row.line} 行：Pi 一栏没有一个名字`);
    for (const span of row.pi.map(classifyPiSpan)) {
      if (span.kind === "literal" && !lookup.piLiteral(span.value)) out.push(`对照表第 ${row.line} 行：事件 "${span.value}" 不在 Pi 1.6.0 里`);
      if (span.kind === "name" && !lookup.piName(span.value)) out.push(`对照表第 ${row.line} 行：\`${span.value}\` 不在 Pi 1.6.0 里`);
    }
    for (const name of row.mini) if (!lookup.courseName(name.split(".")[0] as string)) out.push(`对照表第 ${row.line} 行：\`${name}\` 不在 s12 里`);
  });
  return out;
}

/** 试一下里的命令和紧跟着它的输出：一行 `npm run graduate -- …` 的 bash 块，后面紧跟一个 text 块。 */
export function tryBlocks(readme: string): { command: string; output: string }[] {
  const nodes = parseReadme(readme).sections.find((s) => s.name === "试一下")?.nodes ?? [];
  const out: { command: string; output: string }[] = [];
  nodes.forEach((n, i) => {
    const next = nodes[i + 1];
    if (n.type === "code" && n.lang === "bash" && next?.type === "code" && next.lang === "text") out.push({ command: n.value.trim(), output: next.value });
  });
  return out;
}

/** 最后一节的最后一个命令块里的 pi 命令（「然后就是这一条」）。 */
export function finalCommand(readme: string): string | undefined {
  const last = parseReadme(readme).sections.at(-1);
  const blocks = (last?.nodes ?? []).filter((n): n is Code => n.type === "code" && n.lang === "bash");
  return blocks.at(-1)?.value.split("\n").find((l) => l.startsWith("pi "));
}

const headProblems = (head: readonly RootContent[]): string[] => {
  const h1 = head.find((n) => n.type === "heading" && n.depth === 1);
  const quote = head.find((n) => n.type === "blockquote");
  const lines = quote === undefined ? [] : toString(quote, { includeHtml: false }).split("\n");
  return [
    ...(h1 === undefined || !toString(h1).startsWith("毕业") ? ["开头没有以「毕业」开头的一级标题"] : []),
    ...(lines.length !== 2 || !(lines[1] ?? "").startsWith("Pi 边界：") ? ["一级标题下面要有两行引用：格言，和「Pi 边界：」"] : []),
  ];
};

/** README 的结构：开头、各节的顺序、三个练习各一小节、试一下有命令和输出、最后一节以 pi -e 命令和一张清单收尾。 */
export function structureProblems(readme: string): string[] {
  const doc = parseReadme(readme);
  const out = headProblems(doc.head);
  const names = doc.sections.map((s) => s.name);
  if (names.join("|") !== GRADUATION_SECTIONS.join("|")) out.push(`二级标题该是 ${GRADUATION_SECTIONS.join("、")}，现在是 ${names.join("、")}`);
  const h3 = (doc.sections.find((s) => s.name === "三个练习")?.nodes ?? []).filter((n) => n.type === "heading" && n.depth === 3).map((n) => toString(n));
  if (h3.join("|") !== EXERCISES.map((e) => e.section).join("|")) out.push(`「三个练习」的小节该是 ${EXERCISES.map((e) => e.section).join("、")}，现在是 ${h3.join("、")}`);
  const tries = tryBlocks(readme);
  if (tries.length === 0) out.push("「试一下」里没有「命令 + 输出」的一对代码块");
  for (const t of tries) if (!/^npm run graduate -- \S/.test(t.command) || t.command.includes("\n")) out.push(`「试一下」的命令该是一行 npm run graduate -- …：${t.command}`);
  const command = finalCommand(readme);
  if (command === undefined) out.push(`「${LAST}」最后一个命令块里没有 pi 命令`);
  else for (const ex of EXERCISES.filter((e) => e.target.endsWith(".ts"))) if (!command.includes(`-e "$LP/practice/graduation/${ex.target}"`)) out.push(`最后那条 pi 命令没有装 ${ex.target}`);
  const end = doc.sections.at(-1)?.nodes.at(-1);
  if (end?.type !== "list" || (end as List).children.length === 0) out.push(`README 要以「你应该看到」的一张清单结束`);
  return out;
}
