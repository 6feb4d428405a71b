/**
 * Teaching checks for the lesson READMEs and the root README, on a Markdown syntax tree
 * (mdast-util-from-markdown + GFM). Run by tests/teaching.test.ts; each check also runs on the broken
 * fixtures in tests/fixtures/teaching/ to prove it can fail. Messages start with `sNN README …` or `README.md …`.
 *
 * ── What a writer must do to pass ──────────────────────────────────────────────────────────────────
 * 术语表 (GLOSSARY.md)
 *   Every code a README cites — R1…R8, U1, U2, D<n>, F<n>, R-写①…⑤ — has an anchor line
 *   `<a id="r1"></a>` in GLOSSARY.md (id = the code in lowercase). In a lesson README the first time a code
 *   appears in each part (the head above `## 问题`, then each H2 section) it is a link to that anchor:
 *   `[R1](../GLOSSARY.md#r1)`; later uses in the same part may be plain. Fenced blocks (code excerpts,
 *   diagrams) and the inside of longer code spans (`@upgraded s03 (U1)`) are not citations and need no link,
 *   but their codes must still resolve. Every link to GLOSSARY.md must hit an anchor, and a link whose text
 *   is a code must point at that code's own anchor. GLOSSARY.md itself has one entry for every code cited in
 *   EVOLUTION.md, fidelity/DIFFERENCES.md and the READMEs, and no anchor twice.
 * 图 (one Mermaid diagram per lesson)
 *   Exactly one ```mermaid block. Vocabulary discipline holds for pictures too: no identifier in it may be a
 *   later lesson's name (later = first appearance in the API reports tests/api/sNN.json, the dictionary
 *   DICTIONARY of tests/constitution.ts, and its LESSON_NAMES when it exports them; a member or literal word
 *   that this lesson's code also uses is ordinary code). The part this lesson adds is highlighted: at least
 *   one node with a quoted label is in class `new` (`x:::new` or `class x,y new`), and the highlighted
 *   labels name at least one name this lesson introduces.
 * 链路 (root README, section `## 一轮对话的完整链路`)
 *   Every identifier in the section's code spans, and every code-looking token (camelCase, snake_case,
 *   `a.b`, `f(`) in its Mermaid labels, is a name in s12's code.ts; every `f(` is a function or method
 *   declared there. Every rule tag resolves in GLOSSARY.md and every lesson tag sNN is a lesson.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Nodes, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import ts from "typescript";
import { z } from "zod";
import * as constitution from "./constitution.ts";
import { LESSONS, ROOT, lessonDir, lessonNumber } from "./course.ts";

// ── markdown ────────────────────────────────────────────────────────────────────────────────────────
export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

const textOf = (node: Nodes): string => ("value" in node ? node.value : "children" in node ? node.children.map(textOf).join("") : "");

/** The head (everything before the first H2, named "开头") and each H2 section with its nodes. */
export function partsOf(root: Root): { name: string; nodes: RootContent[] }[] {
  const parts: { name: string; nodes: RootContent[] }[] = [{ name: "开头", nodes: [] }];
  for (const node of root.children) {
    if (node.type === "heading" && node.depth === 2) parts.push({ name: textOf(node).trim(), nodes: [] });
    else parts.at(-1)?.nodes.push(node);
  }
  return parts;
}

const line = (node: Nodes): number => node.position?.start.line ?? 0;

// ── codes ───────────────────────────────────────────────────────────────────────────────────────────
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
    if (anchor !== undefined) onLink(anchor, textOf(node), line(node));
    return node.children.flatMap((child) => occurrences(child, onLink, anchor ?? linkedTo));
  }
  if (node.type === "text") return codesIn(node.value).map((code) => ({ code, line: line(node), linkedTo, citation: true }));
  if (node.type === "inlineCode") {
    const whole = codesIn(node.value).length === 1 && node.value.trim() === codesIn(node.value)[0];
    return codesIn(node.value).map((code) => ({ code, line: line(node), linkedTo, citation: whole }));
  }
  if (node.type === "code" || node.type === "html") return codesIn(node.value).map((code) => ({ code, line: line(node), linkedTo: undefined, citation: false }));
  if ("children" in node) return node.children.flatMap((child) => occurrences(child, onLink, linkedTo));
  return [];
}

/**
 * 术语表: every cited code resolves to a glossary anchor, each GLOSSARY.md link hits an anchor (a code's link
 * its own anchor), and — when `firstUseLinked` (lesson READMEs) — the first citation of a code in each part is a link.
 */
export function checkGlossaryLinks(who: string, readme: string, anchors: ReadonlySet<string>, firstUseLinked: boolean): string[] {
  const out: string[] = [];
  for (const part of partsOf(parseMarkdown(readme))) {
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

// ── the course's names: which lesson introduces each ───────────────────────────────────────────────
export interface Origin {
  lesson: string;
  /** A declaration (or a dictionary type): always a course name. */
  decl: boolean;
  /** From LESSON_NAMES (§3): counted even where this lesson's code uses the same word. */
  curated: boolean;
}

const TS_WORDS = new Set("type interface class function const let var return async await yield new this void null undefined true false string number boolean unknown never any object export import from extends implements readonly private public protected static constructor of in for if else switch case default break continue throw try catch finally typeof keyof as is".split(" "));

/** The names a report key (format: tests/api/README.md) brings in: its owner (a declaration) and member/variant words. */
export function namesOfKey(key: string): { owner: string; words: string[] } | undefined {
  if (key.includes("@")) return undefined;
  const owner = /^[^.#|[@( ]+/.exec(key)?.[0] ?? key;
  const rest = key.slice(owner.length);
  const member = /^[.#]([\w$]+)$/.exec(rest) ?? /^\[[^\]]*\]\.([\w$]+)$/.exec(rest);
  if (member) return { owner, words: member[1] === "constructor" ? [] : [member[1] ?? ""] };
  if (rest.startsWith("|")) {
    const variant = rest.slice(1);
    const quoted = [...variant.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "");
    return { owner, words: quoted.length > 0 ? quoted : /^[A-Za-z_$][\w$]*$/.test(variant) ? [variant] : [] };
  }
  return { owner, words: [] };
}

/** name → the lesson that introduces it, from the API reports, the dictionary and (if exported) LESSON_NAMES. */
export function buildOrigins(
  reports: ReadonlyMap<string, Record<string, string>>,
  dictionary: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>>,
  lessonNames: Readonly<Record<string, readonly string[]>> = {},
): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  const add = (name: string, lesson: string, decl: boolean, curated: boolean): void => {
    if (name === "" || TS_WORDS.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name)) return;
    const old = origins.get(name);
    if (old === undefined || lessonNumber(lesson) < lessonNumber(old.lesson)) origins.set(name, { lesson, decl: decl || (old?.decl ?? false), curated: curated || (old?.curated ?? false) });
    else {
      old.decl ||= decl;
      if (curated && lesson === old.lesson) old.curated = true;
    }
  };
  const addKeys = (lesson: string, keys: Iterable<string>): void => {
    for (const key of keys) {
      const names = namesOfKey(key);
      if (names === undefined) continue;
      add(names.owner, lesson, true, false);
      for (const word of names.words) add(word, lesson, false, false);
    }
  };
  for (const [lesson, report] of reports) addKeys(lesson, Object.keys(report));
  for (const [lesson, types] of Object.entries(dictionary)) for (const keys of Object.values(types)) addKeys(lesson, Object.keys(keys));
  for (const [lesson, names] of Object.entries(lessonNames)) for (const name of names) add(name, lesson, false, true);
  return origins;
}

/** Identifier tokens of a TypeScript file (comments and JSDoc excluded) and identifier-like string literals. */
export function codeTokens(code: string): Set<string> {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out.add(node.text.replace(/^#/, ""));
    else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /^[A-Za-z_$][\w$]*$/.test(node.text)) out.add(node.text);
    node.getChildren(sf).forEach(visit);
  };
  visit(sf);
  return out;
}

/** Names a TypeScript file declares as callable: functions, methods, and consts/properties holding a function. */
export function callables(code: string): Set<string> {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Set<string>();
  const isFn = (n: ts.Node | undefined): boolean => n !== undefined && (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionTypeNode(n));
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) && node.name !== undefined && ts.isIdentifier(node.name)) out.add(node.name.text);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isFn(node.initializer)) out.add(node.name.text);
    if ((ts.isPropertySignature(node) && isFn(node.type)) || (ts.isPropertyAssignment(node) && isFn(node.initializer))) {
      if (ts.isIdentifier(node.name)) out.add(node.name.text);
    }
    node.forEachChild(visit);
  };
  visit(sf);
  return out;
}

export interface Vocabulary {
  origins: ReadonlyMap<string, Origin>;
  /** lesson → its code.ts identifier tokens. */
  tokens: (lesson: string) => ReadonlySet<string>;
}

/** The lesson that introduces `name` when that is after `lesson`, else undefined (the vocabulary check's notion). */
export function laterLessonOf(name: string, lesson: string, vocab: Vocabulary): string | undefined {
  const origin = vocab.origins.get(name);
  if (origin === undefined || lessonNumber(origin.lesson) <= lessonNumber(lesson)) return undefined;
  if (!origin.decl && !origin.curated && vocab.tokens(lesson).has(name)) return undefined;
  return origin.lesson;
}

// ── mermaid ─────────────────────────────────────────────────────────────────────────────────────────
const IDENT = /(?<![\w$])[A-Za-z_$][\w$]*/g;
const identifiers = (text: string): string[] => [...text.matchAll(IDENT)].map((m) => m[0]);

/** Node labels of a flowchart (`id["…"]`, `id(["…"])`, `id{"…"}` …) and the ids in class `new`. */
export function mermaidNodes(body: string): { labels: Map<string, string>; highlighted: Set<string> } {
  const labels = new Map<string, string>();
  const highlighted = new Set<string>();
  for (const m of body.matchAll(/(?<![\w$])([A-Za-z_][\w]*)\s*(?:\(\[|\[\[|\[\(|\(\(|\{\{|\[|\(|\{|>)\s*"([^"]*)"\s*(?:\]\)|\]\]|\)\]|\)\)|\}\}|\]|\)|\})(:::\s*([\w-]+))?/g)) {
    const id = m[1] ?? "";
    labels.set(id, `${labels.get(id) ?? ""} ${m[2] ?? ""}`);
    if (m[4] === "new") highlighted.add(id);
  }
  for (const m of body.matchAll(/^\s*class\s+([\w,\s]+?)\s+new\s*;?\s*$/gm)) for (const id of (m[1] ?? "").split(/[,\s]+/)) if (id !== "") highlighted.add(id);
  return { labels, highlighted };
}

/** 图: exactly one Mermaid diagram; no later lesson's name in it; the highlighted part names something this lesson adds. */
export function checkDiagram(lesson: string, readme: string, vocab: Vocabulary): string[] {
  const say = (what: string): string => `${lesson} README 图: ${what}`;
  const diagrams: { body: string; line: number }[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "code" && node.lang === "mermaid") diagrams.push({ body: node.value, line: line(node) });
    if ("children" in node) node.children.forEach(visit);
  };
  visit(parseMarkdown(readme));
  if (diagrams.length !== 1) return [say(`a lesson README has exactly one \`\`\`mermaid diagram of where its part sits in the turn chain; found ${diagrams.length}`)];
  const [{ body, line: at }] = diagrams as [{ body: string; line: number }];
  const out: string[] = [];
  for (const name of new Set(identifiers(body))) {
    const later = laterLessonOf(name, lesson, vocab);
    if (later !== undefined) out.push(say(`line ${at}: \`${name}\` is introduced in ${later}; a lesson's picture shows only this and earlier lessons' parts (R-写⑤)`));
  }
  const { labels, highlighted } = mermaidNodes(body);
  const shown = [...highlighted].filter((id) => labels.has(id));
  if (shown.length === 0) out.push(say(`line ${at}: highlight this lesson's part: put at least one labelled node in class \`new\` (\`id:::new\` or \`class id new\`)`));
  else {
    const own = shown.flatMap((id) => identifiers(labels.get(id) ?? "")).filter((name) => vocab.origins.get(name)?.lesson === lesson);
    if (own.length === 0) out.push(say(`line ${at}: the highlighted nodes (${shown.join(", ")}) name nothing ${lesson} introduces`));
  }
  return out;
}

// ── the root README's chain ─────────────────────────────────────────────────────────────────────────
export const CHAIN_HEADING = "一轮对话的完整链路";

/** A code-looking token of a label: camelCase/PascalCase, snake_case, part of `a.b`, or called `f(`. */
function codeLooking(label: string): { name: string; call: boolean }[] {
  const out: { name: string; call: boolean }[] = [];
  for (const m of label.matchAll(/(?<![\w$])(\.)?([A-Za-z_$][\w$]*)(\s*\()?(\.|\?\.)?/g)) {
    const name = m[2] ?? "";
    const call = m[3] !== undefined;
    if (call || m[1] !== undefined || m[4] !== undefined || /[A-Z]/.test(name.slice(1)) || name.includes("_")) out.push({ name, call });
  }
  return out;
}

/** 链路: the chain section names only what s12 has, calls only its functions, and tags only known rules and lessons. */
export function checkRootChain(readme: string, finalCode: string, anchors: ReadonlySet<string>, lessons: readonly string[]): string[] {
  const say = (what: string): string => `README.md ${CHAIN_HEADING}: ${what}`;
  const part = partsOf(parseMarkdown(readme)).find((p) => p.name.startsWith(CHAIN_HEADING));
  if (part === undefined) return [say("section missing")];
  const tokens = codeTokens(finalCode);
  const functions = callables(finalCode);
  const out: string[] = [];
  const name = (n: string, at: number): void => void (tokens.has(n) || TS_WORDS.has(n) || out.push(say(`line ${at}: \`${n}\` is not a name in s12's code.ts`)));
  const call = (n: string, at: number): void => void (!tokens.has(n) || functions.has(n) || out.push(say(`line ${at}: \`${n}(…)\` is called, but s12's code.ts declares no function or method ${n}`)));
  const tags = (text: string, at: number): void => {
    for (const code of codesIn(text)) if (!anchors.has(anchorOf(code))) out.push(say(`line ${at}: tag ${code} is not in GLOSSARY.md`));
    for (const m of text.matchAll(/(?<![\w/])s(\d\d)(?![\w])/g)) if (!lessons.includes(`s${m[1]}`)) out.push(say(`line ${at}: tag s${m[1]} is not a lesson`));
  };
  const visit = (node: Nodes): void => {
    if (node.type === "inlineCode") {
      const bare = node.value.replace(/"[^"]*"|'[^']*'/g, " ");
      for (const n of identifiers(bare)) name(n, line(node));
      for (const m of bare.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)) call(m[1] ?? "", line(node));
    }
    if (node.type === "code" && node.lang === "mermaid") {
      for (const label of mermaidNodes(node.value).labels.values()) {
        for (const t of codeLooking(label.replace(/<[^>]*>/g, " "))) {
          name(t.name, line(node));
          if (t.call) call(t.name, line(node));
        }
      }
      tags(node.value, line(node));
    }
    if (node.type === "text") tags(node.value, line(node));
    if ("children" in node) node.children.forEach(visit);
  };
  part.nodes.forEach(visit);
  return [...new Set(out)];
}

// ── the real project ────────────────────────────────────────────────────────────────────────────────
export const readText = (path: string): string => readFileSync(join(ROOT, path), "utf8");
export const lessonReadme = (lesson: string): string => `${lessonDir(lesson)}/README.md`;

const LessonNames = z.record(z.string(), z.array(z.string()));

/** Origins from the committed API reports and tests/constitution.ts (DICTIONARY; LESSON_NAMES when it exports them). */
export function projectVocabulary(): Vocabulary {
  const reports = new Map<string, Record<string, string>>();
  for (const file of readdirSync(join(ROOT, "tests", "api")).filter((f) => /^s\d\d\.json$/.test(f)).sort()) {
    reports.set(file.slice(0, 3), z.record(z.string(), z.string()).parse(JSON.parse(readText(`tests/api/${file}`))));
  }
  const names = LessonNames.safeParse(Reflect.get(constitution, "LESSON_NAMES"));
  const origins = buildOrigins(reports, constitution.DICTIONARY, names.success ? names.data : {});
  const cache = new Map<string, Set<string>>();
  const tokens = (lesson: string): Set<string> => {
    let found = cache.get(lesson);
    if (found === undefined) {
      found = codeTokens(readText(`${lessonDir(lesson)}/code.ts`));
      cache.set(lesson, found);
    }
    return found;
  };
  return { origins, tokens };
}

/** Every code cited in the course's documents → the first document citing it (for GLOSSARY.md's completeness). */
export function citedCodes(): Map<string, string> {
  const cited = new Map<string, string>();
  const files = ["EVOLUTION.md", "fidelity/DIFFERENCES.md", "README.md", ...LESSONS.map(lessonReadme)];
  for (const file of files) for (const code of codesIn(readText(file))) if (!cited.has(code)) cited.set(code, file);
  return cited;
}
