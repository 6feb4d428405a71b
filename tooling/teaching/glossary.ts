/**
 * 教学检查：术语表（GLOSSARY.md），在 Markdown 语法树上查（tooling/markdown.ts）。tests/teaching.test.ts 在真的课程和
 * tests/fixtures/teaching/ 里改坏的样例上各跑一遍。写的人要做到：
 *
 *   README 引用的每个编号——R1…R8、U1、U2、D<n>、F<n>、R-写①…⑤——在 GLOSSARY.md 里都有一行锚点
 *   `<a id="r1"></a>`（id 就是编号的小写）。课的 README 里，一个编号在每一部分（`## 问题` 之上的开头，然后每个二级标题
 *   小节）第一次出现时要链到那个锚点：`[R1](../GLOSSARY.md#r1)`；同一部分里后面再出现可以不链。代码块（代码片段、图）
 *   和较长的行内代码里面（`@upgraded s03 (U1)`）不算引用，不用链，但编号照样得在术语表里有。每个链到 GLOSSARY.md 的
 *   链接都得落在一个锚点上，链接文字是一个编号的，要指向这个编号自己的锚点。GLOSSARY.md 自己给 EVOLUTION.md、
 *   fidelity/DIFFERENCES.md 和各 README 引用的每个编号各写一条，锚点不重复。
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";
import { LESSONS, ROOT, lessonDir } from "../course.ts";
import { lineOf, parseReadme, partsOf } from "../markdown.ts";

// ── 编号 ─────────────────────────────────────────────────
/** 课程写的规则、决策、差异编号：R1…R8、U1、U2、D7、F13、R-写④。 */
export const CODE = /(?<![A-Za-z0-9_-])(R-写[①②③④⑤]|R[1-9]|U[1-9]|D\d{1,3}|F\d{1,3})(?![A-Za-z0-9_])/g;
export const codesIn = (text: string): string[] => [...text.matchAll(CODE)].map((m) => m[1] ?? "");
/** 一个编号在术语表里的锚点：它的小写（`R-写④` → `r-写④`）。 */
export const anchorOf = (code: string): string => code.toLowerCase();

/** GLOSSARY.md 的锚点 id（`<a id="…"></a>` 那几行），和出现了不止一次的 id。 */
export function glossaryAnchors(glossary: string): { ids: Set<string>; repeated: string[] } {
  const ids = new Set<string>();
  const repeated: string[] = [];
  for (const m of glossary.matchAll(/<a id="([^"]+)"><\/a>/g)) {
    const id = m[1] ?? "";
    if (ids.has(id)) repeated.push(id);
    ids.add(id);
  }
  return { ids, repeated };
}

interface Occurrence {
  code: string;
  line: number;
  /** 它链到的术语表锚点；不在链到 GLOSSARY.md 的链接里时是 undefined。 */
  linkedTo: string | undefined;
  /** 读者看得出是引用的（正文里，或整段行内代码就是这个编号）；在代码块和较长的行内代码里是 false。 */
  citation: boolean;
}

const GLOSSARY_LINK = /(?:^|\/)GLOSSARY\.md#(.+)$/;

/** `node` 下面出现的每个编号，按文档里的先后；链到 GLOSSARY.md 的链接交给 `onLink`。 */
function occurrences(node: Nodes, onLink: (anchor: string, text: string, line: number) => void, linkedTo?: string): Occurrence[] {
  if (node.type === "link") {
    const target = GLOSSARY_LINK.exec(node.url);
    const anchor = target ? decodeURIComponent(target[1] ?? "") : undefined;
    if (anchor !== undefined) onLink(anchor, toString(node), lineOf(node));
    return node.children.flatMap((child) => occurrences(child, onLink, anchor ?? linkedTo));
  }
  if (node.type === "text") return codesIn(node.value).map((code) => ({ code, line: lineOf(node), linkedTo, citation: true }));
  if (node.type === "inlineCode") {
    const whole = codesIn(node.value).length === 1 && node.value.trim() === codesIn(node.value)[0];
    return codesIn(node.value).map((code) => ({ code, line: lineOf(node), linkedTo, citation: whole }));
  }
  if (node.type === "code" || node.type === "html") return codesIn(node.value).map((code) => ({ code, line: lineOf(node), linkedTo: undefined, citation: false }));
  if ("children" in node) return node.children.flatMap((child) => occurrences(child, onLink, linkedTo));
  return [];
}

/**
 * 术语表：引用的每个编号都在术语表里有锚点，每个链到 GLOSSARY.md 的链接都落在锚点上（编号的链接落在它自己的锚点上）；
 * `firstUseLinked` 时（课的 README）一个编号在每一部分第一次出现要是链接。
 */
export function checkGlossaryLinks(who: string, readme: string, anchors: ReadonlySet<string>, firstUseLinked: boolean): string[] {
  const out: string[] = [];
  for (const part of partsOf(parseReadme(readme))) {
    const say = (what: string): void => void out.push(`${who} ${part.name}: ${what}`);
    const onLink = (anchor: string, text: string, at: number): void => {
      if (!anchors.has(anchor)) say(`line ${at}: link to GLOSSARY.md#${anchor}, which GLOSSARY.md has no anchor for`);
      const codes = codesIn(text);
      if (codes.length === 1 && text.trim() === codes[0] && anchorOf(codes[0] ?? "") !== anchor) {
        say(`line ${at}: [${text}] links to #${anchor}; a code links to its own anchor #${anchorOf(codes[0] ?? "")}`);
      }
    };
    const seen = new Set<string>();
    for (const o of part.nodes.flatMap((node) => occurrences(node, onLink))) {
      if (!anchors.has(anchorOf(o.code))) {
        say(`line ${o.line}: ${o.code} has no entry in GLOSSARY.md (add <a id="${anchorOf(o.code)}"></a> and a few plain sentences)`);
        continue;
      }
      if (!firstUseLinked || !o.citation || seen.has(o.code)) continue;
      seen.add(o.code);
      if (o.linkedTo === undefined) say(`line ${o.line}: first ${o.code} in this part must link to the glossary: [${o.code}](../GLOSSARY.md#${anchorOf(o.code)})`);
    }
  }
  return [...new Set(out)];
}

/** GLOSSARY.md 自己：锚点不重复，`cited`（编号 → 在哪里引用的）里的每个编号都有一条。 */
export function checkGlossary(glossary: string, cited: ReadonlyMap<string, string>): string[] {
  const { ids, repeated } = glossaryAnchors(glossary);
  const out = repeated.map((id) => `GLOSSARY.md: anchor "${id}" appears more than once`);
  for (const [code, where] of cited) if (!ids.has(anchorOf(code))) out.push(`GLOSSARY.md: no entry for ${code} (cited in ${where})`);
  return out;
}

// ── 真的课程 ───────────────────────────────────────
export const readText = (path: string): string => readFileSync(join(ROOT, path), "utf8");
export const lessonReadme = (lesson: string): string => `${lessonDir(lesson)}/README.md`;

/** 课程文档里引用的每个编号 → 第一个引用它的文档（查 GLOSSARY.md 齐不齐用）。 */
export function citedCodes(): Map<string, string> {
  const cited = new Map<string, string>();
  const files = ["EVOLUTION.md", "fidelity/DIFFERENCES.md", "README.md", ...LESSONS.map(lessonReadme)];
  for (const file of files) for (const code of codesIn(readText(file))) if (!cited.has(code)) cited.set(code, file);
  return cited;
}
