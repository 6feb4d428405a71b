// 练习模式读课的 README：切「工作原理」的小节（空白的提示、阶段的「再读」指向讲它的那一小节），
// 还有「自己写一遍」小节里的命令、阶段列表和第一次检查的输出拿出来核对（checkPracticeSection）。
import type { Code, List, Nodes, RootContent } from "mdast";
import { lineOf, parseReadme, partsOf } from "../markdown.ts";
import type { Stage } from "./stage-table.ts";
import { STAGE_LINE } from "./check-report.ts";

const textOf = (node: Nodes): string => ("value" in node ? node.value : "children" in node ? node.children.map(textOf).join("") : "");

/** 一个小节：标题、它在 README 里的行号（H3 那一行，或加粗开头的那段），和下面的内容。 */
type Part = { title: string; line: number; nodes: RootContent[] };

/**
 * 一个 H2 节切成小节：有 H3 就按 H3 切；没有 H3 的节按加粗开头的段落切（「**第一步：…**」），标题去掉收尾的标点。
 * 第一个小节之前的内容归在 H2 自己名下。
 */
const parsed = new Map<string, Part[]>();
export function subsections(readme: string, h2: string): Part[] {
  const key = `${h2}\0${readme}`;
  const hit = parsed.get(key);
  if (hit !== undefined) return hit;
  const parts = split(readme, h2);
  parsed.set(key, parts);
  return parts;
}

const trees = new Map<string, ReturnType<typeof partsOf>>();
function split(readme: string, h2: string): Part[] {
  let tree = trees.get(readme);
  if (tree === undefined) {
    tree = partsOf(parseReadme(readme));
    trees.set(readme, tree);
  }
  const section = tree.find((p) => p.name === h2);
  if (section === undefined) return [];
  const hasH3 = section.nodes.some((n) => n.type === "heading" && n.depth === 3);
  const parts: Part[] = [{ title: h2, line: section.line, nodes: [] }];
  for (const node of section.nodes) {
    const lead = node.type === "paragraph" && node.children[0]?.type === "strong" ? node.children[0] : undefined;
    if (node.type === "heading" && node.depth === 3) parts.push({ title: textOf(node).trim(), line: lineOf(node), nodes: [] });
    else if (!hasH3 && lead !== undefined) parts.push({ title: textOf(lead).trim().replace(/[。：:，,]$/, ""), line: lineOf(node), nodes: [node] });
    else parts.at(-1)?.nodes.push(node);
  }
  return parts;
}

const inlineCodes = (nodes: readonly Nodes[]): string[] =>
  nodes.flatMap((n) => (n.type === "inlineCode" ? [n.value] : "children" in n ? inlineCodes(n.children) : []));

/**
 * 「工作原理」里讲某处空白的小节。整个函数体挖空时依次找：① 标题里提到这个函数（或它所在的类）的；
 * ② 代码片段和挖掉的代码重合最多的；③ 正文的行内代码里提到它、或提到挖掉的代码里的名字的。只挖几条语句时先找 ②。
 * 都没有就是「工作原理」本身。
 */
export function sectionFor(readme: string, stub: { names: readonly string[]; removed: readonly string[]; whole: boolean }): string {
  const parts = subsections(readme, "工作原理");
  const word = (name: string): RegExp => new RegExp(`(^|[^\\w])${name.replace(/[$]/g, "\\$")}([^\\w]|$)`);
  // 先找最具体的名字：`ExtensionRuntime.emit` 先找 emit 的小节，没有才找 ExtensionRuntime 的
  const titled = stub.names.map((n) => parts.find((p) => word(n).test(p.title))).find((p) => p !== undefined);
  // 像样的代码行才算重合（`}`、`try {` 这种到处都有）
  const removed = new Set(stub.removed.filter((l) => l.length >= 12));
  const overlap = (p: Part): number =>
    p.nodes.filter((n): n is Code => n.type === "code").flatMap((n) => n.value.split("\n").map((l) => l.trim())).filter((l) => removed.has(l)).length;
  const best = parts.map((p) => ({ p, n: overlap(p) })).reduce<{ p?: Part; n: number }>((a, b) => (b.n > a.n ? b : a), { n: 0 }).p;
  const mentions = (names: readonly string[]): Part | undefined =>
    parts.find((p) => p !== parts[0] && inlineCodes(p.nodes).some((c) => names.some((n) => word(n).test(c))));
  // 挖掉的代码里调用的名字（`return finish(assistant);` 里的 finish）：只在挖几条语句时用，关键字不算
  const called = [...new Set(stub.removed.flatMap((l) => [...l.matchAll(/([A-Za-z_$][\w$]*)\(/g)].map((m) => m[1])))].filter((n) => !KEYWORDS.has(n));
  const found = stub.whole ? (titled ?? best ?? mentions(stub.names)) : (best ?? titled ?? mentions(stub.names) ?? mentions(called));
  return found?.title ?? "工作原理";
}

/** 「工作原理」的小节：标题和行号（阶段表点名的小节、报告里「再读」指的那一行）。 */
export const howItWorks = (readme: string): { title: string; line: number }[] => subsections(readme, "工作原理").map(({ title, line }) => ({ title, line }));

/** 「试一下」里「自己写一遍」小节：代码块按出现顺序，prose 是正文里的行内代码。 */
export function practiceBlocks(readme: string): { blocks: Code[]; prose: string[]; list?: List } | undefined {
  const part = subsections(readme, "试一下").find((p) => p.title === PRACTICE_HEADING);
  if (part === undefined) return undefined;
  const list = part.nodes.find((n): n is List => n.type === "list" && n.ordered === true);
  return { blocks: part.nodes.filter((n): n is Code => n.type === "code"), prose: inlineCodes(part.nodes), list };
}

export const PRACTICE_HEADING = "自己写一遍";

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "function", "return", "typeof", "new", "await", "super"]);

/**
 * 「试一下」里的「自己写一遍」说的是真的：「工作原理」开头让读者选先读还是先写（choiceProblems）；有这一小节；
 * 正文说了改一次文件多久看到报告、用 `npm run bench:check -- sNN` 量的；一个 bash 块恰好是 `npm run practice -- sNN` 和
 * `npm run check -- sNN` 两行；正文的行内代码点到了每一处空白（函数名，或空白所在的小函数名）；
 * 一个有序列表按顺序列出阶段表（stage-table.ts）的每个阶段，第 k 项以第 k 个阶段的标题开头；
 * 后面的 text 块是学习者第一次 check 看到的那一段。output 给了（真跑了一次 check），text 块就得和它一字不差。
 */
export function checkPracticeSection(id: string, readme: string, stubs: readonly { name: string }[], stages: readonly Stage[], output?: string): string[] {
  const say = (what: string): string => `${id} README 试一下 › ${PRACTICE_HEADING}: ${what}`;
  const part = practiceBlocks(readme);
  if (part === undefined) return [say(`missing: add "### ${PRACTICE_HEADING}" inside ## 试一下`)];
  const out: string[] = [...choiceProblems(id, readme)];
  const items = (part.list?.children ?? []).map((item) => textOf(item).trim());
  if (items.length !== stages.length || stages.some((s, i) => !items[i].startsWith(s.title))) {
    out.push(say(`the numbered list must name the ${stages.length} stages of tooling/practice/stage-table.ts in order (${stages.map((s) => s.title).join(" / ")}), got ${JSON.stringify(items.map((t) => t.slice(0, 20)))}`));
  }
  const commands = [`npm run practice -- ${id}`, `npm run check -- ${id}`];
  const shell = part.blocks.find((b) => ["bash", "sh", "shell"].includes(b.lang ?? ""));
  const lines = (shell?.value ?? "").split("\n").map((l) => l.trim().replace(/^\$\s+/, "")).filter((l) => l !== "" && !l.startsWith("#"));
  if (shell === undefined || lines.join("\n") !== commands.join("\n")) {
    out.push(say(`the bash block must be exactly the two commands ${commands.map((c) => `\`${c}\``).join(" and ")}, got ${JSON.stringify(lines)}`));
  }
  const codes = part.prose;
  // 改一次文件多久看到报告（issue 31）：数字是量出来的，写明怎么复测
  const bench = `npm run bench:check -- ${id}`;
  if (!codes.includes(bench)) out.push(say(`does not say how long a check takes after an edit, measured with \`${bench}\``));
  for (const stub of stubs) {
    const name = stub.name.split(/ › |\./).at(-1) ?? stub.name;
    const word = new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, "\\$")}([^\\w$]|$)`);
    if (!codes.some((c) => word.test(c))) out.push(say(`does not say what is stubbed: \`${name}\` (${stub.name}) is not named in inline code`));
  }
  const text = part.blocks.find((b, i) => i > part.blocks.indexOf(shell ?? part.blocks[0]) && ["text", "txt", "", null, undefined].includes(b.lang));
  if (text === undefined) out.push(say("no ```text block with the first failure `npm run check` shows"));
  else if (!text.value.startsWith(STAGE_LINE)) out.push(say(`the text block must start at the report's "${STAGE_LINE}" line, got "${text.value.split("\n")[0]}"`));
  else if (output !== undefined) {
    const expected = normalize(text.value);
    const got = normalize(output);
    const k = expected.findIndex((l, i) => l !== got[i]);
    const at = k < 0 && got.length !== expected.length ? Math.min(got.length, expected.length) : k;
    if (at >= 0) out.push(say(`the text block differs from what npm run check -- ${id} prints at line ${at + 1}: expected "${expected[at] ?? "(end)"}", got "${got[at] ?? "(end)"}"`));
  }
  return out;
}

/**
 * 「工作原理」一开头先让读者选：接着往下读，还是先自己写一遍（issue 31）。那一段（段落或引用）得点到
 * `npm run practice -- sNN` 和 `npm run hint -- sNN`，还得在别的内容之前：讲机制的代码一出现，答案就看见了。
 */
export function choiceProblems(id: string, readme: string): string[] {
  const first = subsections(readme, "工作原理")[0]?.nodes[0];
  const codes = first === undefined || (first.type !== "paragraph" && first.type !== "blockquote") ? [] : inlineCodes([first]);
  const want = [`npm run practice -- ${id}`, `npm run hint -- ${id}`];
  const missing = want.filter((c) => !codes.includes(c));
  if (missing.length === 0) return [];
  return [`${id} README 工作原理: must open with the choice to read on or build it first, naming ${want.map((c) => `\`${c}\``).join(" and ")} (missing ${missing.map((c) => `\`${c}\``).join(", ")} in its first paragraph)`];
}

const normalize = (text: string): string[] => {
  const lines = text.split("\n").map((l) => l.trimEnd());
  while (lines.at(-1) === "") lines.pop();
  return lines;
};
