/**
 * Teaching check: 术语表 (GLOSSARY.md), on the Markdown syntax tree (tooling/markdown.ts). Run by
 * tests/teaching.test.ts on the real course and on the broken fixtures in tests/fixtures/teaching/.
 * What a writer must do to pass:
 *
 *   Every code a README cites — R1…R8, U1, U2, D<n>, F<n>, R-写①…⑤ — has an anchor line
 *   `<a id="r1"></a>` in GLOSSARY.md (id = the code in lowercase). In a lesson README the first time a code
 *   appears in each part (the head above `## 问题`, then each H2 section) it is a link to that anchor:
 *   `[R1](../GLOSSARY.md#r1)`; later uses in the same part may be plain. Fenced blocks (code excerpts,
 *   diagrams) and the inside of longer code spans (`@upgraded s03 (U1)`) are not citations and need no link,
 *   but their codes must still resolve. Every link to GLOSSARY.md must hit an anchor, and a link whose text
 *   is a code must point at that code's own anchor. GLOSSARY.md itself has one entry for every code cited in
 *   EVOLUTION.md, fidelity/DIFFERENCES.md and the READMEs, and no anchor twice.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";
import { LESSONS, ROOT, lessonDir } from "../course.ts";
import { lineOf, parseReadme, partsOf } from "../markdown.ts";

// ── codes ─────────────────────────────────────────────────
/** A rule, decision or difference code as the course writes it: R1…R8, U1, U2, D7, F13, R-写④. */
export const CODE = /(?<![A-Za-z0-9_-])(R-写[①②③④⑤]|R[1-9]|U[1-9]|D\d{1,3}|F\d{1,3})(?![A-Za-z0-9_])/g;
export const codesIn = (text: string): string[] => [...text.matchAll(CODE)].map((m) => m[1] ?? "");
/** The glossary anchor of a code: its lowercase form (`R-写④` → `r-写④`). */
export const anchorOf = (code: string): string => code.toLowerCase();

/** The anchor ids of GLOSSARY.md (`<a id="…"></a>` lines), with the ids that appear more than once. */
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
  /** The glossary anchor it links to; undefined when not inside a link to GLOSSARY.md. */
  linkedTo: string | undefined;
  /** A citation the reader sees as such (prose, or a code span that is just the code); false in fences and longer code spans. */
  citation: boolean;
}

const GLOSSARY_LINK = /(?:^|\/)GLOSSARY\.md#(.+)$/;

/** Every code occurrence under `node`, in document order; links to GLOSSARY.md reported through `onLink`. */
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
 * 术语表: every cited code resolves to a glossary anchor, each GLOSSARY.md link hits an anchor (a code's link
 * its own anchor), and — when `firstUseLinked` (lesson READMEs) — the first citation of a code in each part is a link.
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

/** GLOSSARY.md itself: no anchor twice, and an entry for every code in `cited` (code → where it is cited). */
export function checkGlossary(glossary: string, cited: ReadonlyMap<string, string>): string[] {
  const { ids, repeated } = glossaryAnchors(glossary);
  const out = repeated.map((id) => `GLOSSARY.md: anchor "${id}" appears more than once`);
  for (const [code, where] of cited) if (!ids.has(anchorOf(code))) out.push(`GLOSSARY.md: no entry for ${code} (cited in ${where})`);
  return out;
}

// ── the real course ───────────────────────────────────────
export const readText = (path: string): string => readFileSync(join(ROOT, path), "utf8");
export const lessonReadme = (lesson: string): string => `${lessonDir(lesson)}/README.md`;

/** Every code cited in the course's documents → the first document citing it (for GLOSSARY.md's completeness). */
export function citedCodes(): Map<string, string> {
  const cited = new Map<string, string>();
  const files = ["EVOLUTION.md", "fidelity/DIFFERENCES.md", "README.md", ...LESSONS.map(lessonReadme)];
  for (const file of files) for (const code of codesIn(readText(file))) if (!cited.has(code)) cited.set(code, file);
  return cited;
}
