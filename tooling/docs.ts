/**
 * Docs checks for the lesson READMEs (EVOLUTION.md §6.2 template, §6.3 R-写①–⑤, §6.4 接入主线), plus
 * README code excerpts against code.ts and Pi citations against Pi 1.6.0.
 *
 * Every check is a function `(lessonId, readmeText, context) => string[]` (the 试一下 check is async
 * because it runs commands through the injected `context.run`). Real READMEs and the fixtures under
 * tests/fixtures/docs/ go through the same functions. Messages always start with `sNN README …`.
 * Check one lesson by hand: `npx tsx scripts/check-docs.ts s03`.
 *
 * The README is read as a Markdown syntax tree (mdast-util-from-markdown with GFM, the Markdown GitHub
 * renders): headings, tables and their cells, inline code, links, fenced blocks and plain prose are
 * distinct nodes, so no check scans Markdown by hand. "Prose" = the text of paragraphs, headings and
 * table cells outside inline code (markup dropped, backslash escapes undone); a "line" is a source line
 * of such a paragraph, heading or cell.
 *
 * ── What a README writer must do to pass ───────────────────────────────────────────────────────────
 * 模板 (§6.2)
 *   Line 1 `# sNN: <主题> — <点题>` (em dash `—`). Between it and `## 问题` only block quotes: the motto
 *   first, then `Pi 边界：…`. Then exactly the H2s 问题, 解决方案, 工作原理, 试一下, 接入主线, 接下来,
 *   Pi 源码溯源, in this order (H3s are free). The whole Pi 源码溯源 body is one `<details>` … `</details>`
 *   (its first and last blocks; not `<details open>`).
 * 试一下
 *   A ```bash / ```sh block whose lines run a lesson — `npm run sNN`, `npm start`, `npx tsx sNN_x/code.ts`
 *   (`$ ` prompts allowed; other lines such as comments are not run) — must be followed directly by a
 *   ```text (or plain ```) block holding exactly the commands' stdout (trailing spaces per line and
 *   trailing blank lines ignored). At least one such block must run this lesson. `npm run` is resolved
 *   through package.json scripts and run as `tsx <file>` (no npm banner).
 * 接入主线 (one row per change)
 *   Every name the API diff (tests/api/sNN.json minus the previous lesson's report) adds for an exported
 *   declaration must be named by a row of a change table: a new declaration in the row's FIRST cell
 *   (demo helpers too; several names may share a row); a new member (`Agent.registry`) or union member
 *   (`"toolUse"`, `ToolResultMessage`, the `tool_call` of a new variant) in the first cell, or anywhere in
 *   the row whose first cell names its owner (`| \`ToolRegistry\` | … | 加 \`run\` |`). Mentions elsewhere
 *   (the 焊接点 sentence, a ```diff block) do not count. Not required: tag keys, constructors,
 *   discriminant fields, fields of a new variant, pairs the previous report already had. s01 instead
 *   names every s01 declaration in a first cell (its permanent foundation).
 *   U1 (tests/constitution.ts U1_UPGRADES, else removed/changed keys): the upgraded type or member in
 *   backticks in the same table row or paragraph as 这是升级.
 *   Claims: a table cell or line whose text starts with `+` or `新增` (or a `+` list item) claims each
 *   space-free backticked name in it (`X`, `A.b`, `"lit"`) as new in this lesson; each must be in the
 *   API diff. A change-table row whose SECOND cell is `—` (上一节 had nothing; also `-`, `–`, `无`) claims
 *   the unlabelled backticked names of its FIRST cell as new, more strictly: a declaration the previous
 *   report did not have, a member pair or union member it did not have; an owner that merely gained a
 *   member (`Provider` in s03) is not new. Not in s01.
 *   A later lesson's name only with a label right after it: `ToolCall`（s04 加） or `ToolCall` (s04 加)
 *   (also 起/引入/新增, or none); one label after a list joined by 、 , / 和 covers the list. The label
 *   must be the lesson that introduces the name. Earlier-lesson labels are just prose.
 * Ghost nouns (every section but Pi 源码溯源)
 *   A space-free inline code span that is not a path, filename, command word, kebab-case word, number,
 *   lesson id (`s04`) or rule id (`R5`, `U1`) is read as names (`A`, `A.b`, `A#b`, `fn()`, `A<B>`); every
 *   part must be an identifier/keyword token or string-literal content of this lesson's code.ts
 *   (comments don't count). A quoted literal (`"toolUse"`, even with spaces) must occur in code.ts.
 *   Plain prose is held to the same rule for code-looking words: camelCase/PascalCase (a lowercase letter
 *   followed by an uppercase one: `maxTurns`, `ContextBlock`), snake_case, or a call `name()`; product
 *   names (PRODUCT_WORDS) and file names (APPEND_SYSTEM.md) pass. Names this lesson removes by U1 (s03
 *   `complete`) are allowed. A name of Pi 1.6.0 (a declaration or a string literal type such as
 *   agent_start, tests/pi-index.json) on a line that says Pi, or in a table column headed Pi, is Pi's.
 * 词汇纪律 (R-写⑤; the title block and every section but 接入主线 and Pi 源码溯源)
 *   No identifier inside inline code (spaces or not) may be a later lesson's name (labels don't help).
 *   Later names = first appearance in the API reports, the constitution's DICTIONARY and LESSON_NAMES (§3).
 *   A member/literal word outside LESSON_NAMES that this lesson's code also uses (`message` in
 *   `error.message`) is not counted. Prose is held to the same rule for code-looking tokens: an uppercase
 *   letter after the first character (SessionTree, maxTurns), an underscore (tool_call) or a call (run()).
 *   Plain words (run, model) pass. Fenced blocks (the 试一下 commands and output) are not prose.
 * Pi 源码溯源
 *   Backticked Pi names (`SessionManager.branch`, `runAgentLoop()`; the first two parts are checked) and
 *   paths (`packages/…`, `docs/x.md`, short `agent/…` `ai/…` `ca/…`, bare `agent-loop.ts`) must exist in
 *   Pi 1.6.0 (tests/pi-index.json); `packages/…`/`docs/….md` paths in prose, links and blocks too. Names of
 *   this lesson's code, quoted strings and spans with spaces are skipped: write Pi string values quoted.
 * Pi 名字和文件 (anywhere in the README)
 *   A Pi source path next to a name — `path` 的/里的/中的/：`Name` (also a list `A`、`B`), or
 *   `Name`（`path`）/ `Name`，在/见 `path`, or the same with a link to the path — says Name is defined in
 *   that file (or folder): it must be, in Pi 1.6.0.
 * Banned phrases (R-写④/⑤): BANNED, as patterns over the whole file (a line break inside a phrase does not hide it).
 * 代码片段 (every section but Pi 源码溯源)
 *   A ```ts / ```typescript block must be a contiguous run of this lesson's code.ts lines, exactly
 *   (indentation included; trailing whitespace and the block's leading/trailing blank lines ignored).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Heading, Nodes, Paragraph, PhrasingContent, RootContent, TableCell, TableRow } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";
import ts from "typescript";
import { z } from "zod";
import { diffReports, isLiteralUnionGrowth, ownerOf } from "./api/diff";
import { type CommandRunner, type RunResult, createCommandRunner } from "./demos.ts";
import { hasPiLiteral, hasPiName, hasPiPath, loadPiIndex, piFilesDefining, piNameIn } from "./pi-index";

export type { CommandRunner, RunResult };
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Lessons whose README is not written yet: docs.test.ts skips them instead of failing with
 * `sNN README: missing`. Remove an id when its README lands.
 */
export const README_PENDING: readonly string[] = [];

/**
 * Phrase families no README may contain (§6.3), with the rule that bans them. Each is a pattern, so
 * `本节不讲`, `这一章不讲`, `接住这一轮` are caught as well as the constitution's own examples.
 */
export const BANNED: readonly { family: string; pattern: RegExp; rule: string }[] = [
  // R-写④: verb pairings made up for symmetry, named by the constitution itself
  { family: "接住一轮", pattern: /接住(?:这|那|每|整)?[一1]?[轮回]/, rule: "R-写④" },
  { family: "穿过 core", pattern: /穿过\s*(?:core|核心)/i, rule: "R-写④" },
  // R-写⑤: "本章不讲 X" introduces X all the same
  { family: "本章不讲", pattern: /(?:本|这一?|此|这|那)(?:章|节|课|篇)(?:里|中)?(?:先|暂|暂时|还|就|并|也)?(?:不讲|不谈|不涉及|不展开|不讨论)/, rule: "R-写⑤" },
  // R-写④: the formula readers flagged in ten lessons' 点睛
  { family: "这一节真正交付的", pattern: /(?:本|这一?|此)(?:章|节|课|篇)真正(?:要)?(?:交付|带来|留下)的?/, rule: "R-写④" },
];

/** The H2 sections of §6.2, in order. */
export const SECTIONS = ["问题", "解决方案", "工作原理", "试一下", "接入主线", "接下来", "Pi 源码溯源"] as const;

/** Sections outside 词汇纪律 (R-写⑤): labelled signposts are allowed in 接入主线, the Pi trace has its own control. */
export const VOCABULARY_EXEMPT: readonly string[] = ["接入主线", "Pi 源码溯源"];
/** What the title block (H1, motto, Pi 边界) is called in messages. */
export const HEAD = "开头";

/**
 * EVOLUTION.md §3 "本节新增零件" as names, per lesson. Always part of the later-lesson vocabulary
 * (together with the API reports and, when tests/constitution.ts exists, its DICTIONARY). These names are
 * flagged even when the lesson's code happens to use the same word (e.g. a local `run`).
 */
export const LESSON_NAMES: Readonly<Record<string, readonly string[]>> = {
  s01: ["AgentState", "UserMessage", "AssistantMessage", "AgentMessage", "StopReason", "ProviderMessage", "ProviderInput", "Provider", "runOneTurn", "Output"],
  s02: ["ToolSpec", "ToolHandler", "Tool", "ToolRegistry", "register", "getSpecs", "buildProviderInput"],
  s03: ["stream", "ProviderEvent", "collectAssistantMessage", "message_start", "text_delta", "message_end"],
  s04: ["ToolCall", "ToolResultMessage", "tool_call", "toolUse", "run", "runEventedToolLoop", "maxTurns"],
  s05: ["ToolHooks", "beforeToolCall", "afterToolCall", "BeforeToolCallResult", "executeToolCall"],
  s06: ["TurnSnapshot", "createTurnSnapshot", "model"],
  s07: ["SessionTree", "SessionEntry", "append", "moveTo", "currentPath", "allEntries", "parentId"],
  s08: ["ContextResource", "ResourceLoader", "load", "buildSystemPrompt", "systemPrompt"],
  s09: ["Extension", "ExtensionAPI", "ExtensionRuntime", "Command", "RuntimeEvent", "registerTool", "registerCommand"],
  s10: ["RuntimeMode", "PrintMode", "JsonMode", "render"],
  s11: ["ProjectTrust", "trust"],
  s12: ["PackageManifest", "Package", "LoadedPackage", "loadPackage", "pick"],
};

// ── types ───────────────────────────────────────────────────────────────────────────────────────────
export type ApiReport = Record<string, string>;

export interface PiLookup {
  hasName(name: string): boolean;
  hasPath(path: string): boolean;
  /** Every known Pi repo path (source files and docs), for short/suffix path forms. */
  paths: readonly string[];
  /** Whether `name` (`A` or `A.b`) is defined in the Pi source file `path`. */
  nameIn(name: string, path: string): boolean;
  /** The Pi source files that define `name`. */
  filesDefining(name: string): readonly string[];
  /** A string literal type of Pi's declarations (`agent_start`). */
  hasLiteral(value: string): boolean;
}

/** How a name first enters the course. */
export interface NameOrigin {
  lesson: string;
  /** A declaration name somewhere (report decl key, dictionary type) — always a "real" course name. */
  decl: boolean;
  /** Named in LESSON_NAMES (§3) at `lesson`. */
  curated: boolean;
}

export interface DocsContext {
  /** `s03_stream`, for messages. */
  lessonDir: string;
  /** This lesson's code.ts text. */
  code: string;
  /** This lesson's API report; undefined when tests/api/sNN.json is missing. */
  report: ApiReport | undefined;
  /** The previous lesson's report; undefined for the first lesson (s01) or when its report is missing. */
  prevReport: ApiReport | undefined;
  /** The lesson before this one (`s02`), or undefined for the first lesson. */
  prevLesson: string | undefined;
  /** U1 upgrade keys of this lesson (`Provider.complete`). */
  upgrades: readonly string[];
  /** name → the lesson that introduces it (min over reports, dictionary, LESSON_NAMES). */
  origins: ReadonlyMap<string, NameOrigin>;
  /** Lessons that have an API report (a label `(sNN 加)` pointing there can be verified). */
  reported: ReadonlySet<string>;
  pi: PiLookup;
  run: CommandRunner;
}

export type CheckFn = (lessonId: string, readme: string, ctx: DocsContext) => string[] | Promise<string[]>;

// ── markdown: the syntax tree ───────────────────────────────────────────────────────────────────────
export interface Section {
  name: string;
  line: number;
  nodes: RootContent[];
}

export interface ParsedReadme {
  lines: string[];
  /** Nodes before the first H2 (the title block). */
  head: RootContent[];
  sections: Section[];
}

const lineOf = (node: Nodes): number => node.position?.start.line ?? 0;
const parsed = new Map<string, ParsedReadme>();

/** The README as GFM syntax tree, grouped by H2 sections (cached: every check reads the same text). */
export function parseReadme(text: string): ParsedReadme {
  const hit = parsed.get(text);
  if (hit) return hit;
  const root = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const doc: ParsedReadme = { lines: text.replace(/\r\n?/g, "\n").split("\n"), head: [], sections: [] };
  for (const node of root.children) {
    if (node.type === "heading" && node.depth === 2) doc.sections.push({ name: toString(node).trim(), line: lineOf(node), nodes: [] });
    else (doc.sections.at(-1)?.nodes ?? doc.head).push(node);
  }
  parsed.set(text, doc);
  return doc;
}

function findSection(readme: string, name: string): Section | undefined {
  return parseReadme(readme).sections.find((s) => s.name === name);
}

/** Calls `fn` on `nodes` and every node below them, in document order. */
function walk(nodes: readonly Nodes[], fn: (node: Nodes) => void): void {
  for (const n of nodes) {
    fn(n);
    if ("children" in n) walk(n.children, fn);
  }
}

type Container = Paragraph | Heading | TableCell;

/** Paragraphs, headings and table cells under `nodes` (inside lists, quotes and tables too), in order. */
export function containers(nodes: readonly Nodes[]): Container[] {
  const out: Container[] = [];
  walk(nodes, (n) => {
    if (n.type === "paragraph" || n.type === "heading" || n.type === "tableCell") out.push(n);
  });
  return out;
}

/** One piece of a line: prose (markup dropped, escapes undone) or an inline code span; `link` is the link URL it sits in. */
export interface Piece {
  code: boolean;
  value: string;
  link?: string;
}

/** A source line of a paragraph, heading or table cell. */
export interface InlineLine {
  line: number;
  pieces: Piece[];
}

/** A paragraph, heading or table cell as source lines of prose and inline code (`<code>x</code>` is code too). */
export function inlineLines(node: Container): InlineLine[] {
  let cur: InlineLine = { line: lineOf(node), pieces: [] };
  const out = [cur];
  let htmlCode = false;
  const push = (p: Piece): void => {
    const last = cur.pieces.at(-1);
    if (last && !last.code && !p.code && last.link === p.link) last.value += p.value;
    else cur.pieces.push(p);
  };
  const visit = (children: readonly PhrasingContent[], link: string | undefined): void => {
    for (const c of children) {
      if (c.type === "text") {
        c.value.split("\n").forEach((part, i) => {
          if (i > 0) out.push((cur = { line: lineOf(c) + i, pieces: [] }));
          if (part !== "") push({ code: htmlCode, value: part, link });
        });
      } else if (c.type === "inlineCode") push({ code: true, value: c.value, link });
      else if (c.type === "break") out.push((cur = { line: c.position?.end.line ?? cur.line + 1, pieces: [] }));
      else if (c.type === "html") htmlCode = /^<code>$/i.test(c.value.trim()) || (htmlCode && !/^<\/code>$/i.test(c.value.trim()));
      else if (c.type === "link") visit(c.children, c.url);
      else if ("children" in c) visit(c.children, link);
    }
  };
  visit(node.children, undefined);
  return out;
}

/** Every line of every paragraph, heading and table cell under `nodes`. */
export function linesOf(nodes: readonly Nodes[]): InlineLine[] {
  return containers(nodes).flatMap(inlineLines);
}

export const lineText = (l: InlineLine): string => l.pieces.map((p) => p.value).join("");

/** An inline code span, with the lesson label right after it (`ToolCall`（s04 加）), if any. */
export interface Span {
  text: string;
  line: number;
  label: string | undefined;
}

const LABEL = /^\s*[（(]\s*(s\d\d)\s*(?:加|起|引入|新增)?\s*[）)]/;
const JOINER = /^\s*(?:[、,，/／]|和|与|及|或)?\s*$/;

/** The inline code spans of one line; a label after a list joined by 、 , / 和 covers the list. */
export function spansOfLine(l: InlineLine): Span[] {
  const out: Span[] = [];
  for (let i = l.pieces.length - 1; i >= 0; i--) {
    const p = l.pieces[i];
    if (!p?.code) continue;
    const next = l.pieces[i + 1];
    let label = next && !next.code ? LABEL.exec(next.value)?.[1] : undefined;
    if (label === undefined && (next?.code || (next && JOINER.test(next.value) && l.pieces[i + 2]?.code))) label = out[0]?.label;
    out.unshift({ text: p.value, line: l.line, label });
  }
  return out;
}

/** A code-looking word of prose, with the label right after it, if any. */
export interface ProseToken {
  name: string;
  /** As written: `run()` for a call. */
  shown: string;
  line: number;
  label: string | undefined;
}

/**
 * Identifier-like words of a line's prose (outside inline code), each with the label right after it.
 * `looksLikeCode` decides which words count.
 */
export function proseTokens(l: InlineLine, looksLikeCode: (name: string, call: boolean) => boolean): ProseToken[] {
  const out: ProseToken[] = [];
  for (const p of l.pieces) {
    if (p.code) continue;
    for (const m of p.value.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)(\(\))?/g)) {
      const name = m[1] ?? "";
      const call = m[2] !== undefined;
      if (!looksLikeCode(name, call) || (!call && FILE_EXT.test(p.value.slice(m.index).split(/[^\w$.-]/)[0] ?? ""))) continue; // APPEND_SYSTEM.md is a file
      const label = LABEL.exec(p.value.slice(m.index + m[0].length))?.[1];
      out.push({ name, shown: call ? `${name}()` : name, line: l.line, label });
    }
  }
  return out;
}

/** Vocabulary: an uppercase letter after the first character (SessionTree, maxTurns), an underscore, or a call. */
export const vocabularyLooking = (name: string, call: boolean): boolean => call || /[A-Z]/.test(name.slice(1)) || name.includes("_");
/** Ghost nouns: camelCase/PascalCase (`maxTurns`, `ContextBlock`, not `JSON`), snake_case, or a call. */
export const ghostLooking = (name: string, call: boolean): boolean => call || /[a-z][A-Z]/.test(name) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(name);

// ── names in inline code ────────────────────────────────────────────────────────────────────────────
const IDENT = /(?<![\w$])[A-Za-z_$][\w$]*/g;
const NAME_PATH = /(?<![\w$.#])[A-Za-z_$][\w$]*(?:(?:\?\.|\.|#)[A-Za-z_$][\w$]*)*/g;
const FILE_EXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|txt|ya?ml|sh|html|css)$/i;
/** Tool and product words that are never course nouns. */
export const IGNORED_WORDS: ReadonlySet<string> = new Set(["npm", "npx", "tsx", "node", "tsc", "vitest", "git", "bash", "sh", "pi", "Pi", "TypeScript", "JavaScript", "JSON"]);
/** Product and company names that look like code in prose (PascalCase) but are never course nouns. */
export const PRODUCT_WORDS: ReadonlySet<string> = new Set(["TypeScript", "JavaScript", "GitHub", "OpenAI", "OpenShell", "VitePress", "DeepSeek", "ChatGPT", "macOS", "npmjs"]);
/**
 * JavaScript's own names — globals such as `BigInt`, `Promise`, `structuredClone`, and members of the standard prototypes
 * such as `toString`, `then`: a README may talk about the language itself without code.ts declaring them.
 */
export const JS_BUILTINS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(globalThis),
  ...[Object, Function, Array, String, Promise, Error, Map, Set].flatMap((c) => Object.getOwnPropertyNames(c.prototype)),
]);
/** TypeScript keywords and primitive type names: never "later-lesson vocabulary". */
const TS_WORDS: ReadonlySet<string> = new Set(
  "type interface class function const let var return async await yield new this void null undefined true false string number boolean unknown never any object export import from extends implements readonly private public protected static constructor of in for if else switch case default break continue throw try catch finally typeof keyof as is".split(" "),
);

export type SpanKind =
  | { kind: "ignore" }
  | { kind: "literal"; value: string }
  | { kind: "names"; paths: string[][]; literals: string[] };

/** How an inline code span is read: a string literal, names (`A`, `A.b`, `A#b`, `fn()`), or not a name. */
export function classifySpan(raw: string): SpanKind {
  const text = raw.trim();
  const quoted = /^(["'])(.*)\1$/s.exec(text);
  if (quoted) return { kind: "literal", value: quoted[2] ?? "" };
  if (text === "" || /\s/.test(text)) return { kind: "ignore" };
  if (/[^\x20-\x7e]/.test(text)) return { kind: "ignore" };
  if (text.includes("/") || FILE_EXT.test(text) || /^[.~-]/.test(text)) return { kind: "ignore" };
  if (/^[\w@-]+$/.test(text) && text.includes("-")) return { kind: "ignore" }; // kebab-case: packages, CLI words
  if (/^[@<]/.test(text)) return { kind: "ignore" }; // JSDoc tags, HTML tags
  if (/^\d/.test(text) || /^s\d\d$/.test(text) || /^(?:[RUDP]\d+|R-.*)$/.test(text)) return { kind: "ignore" };
  if (IGNORED_WORDS.has(text)) return { kind: "ignore" };
  const literals = [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? "");
  const rest = text.replace(/"[^"]*"|'[^']*'/g, " ");
  const paths = [...rest.matchAll(NAME_PATH)].map((m) => m[0].split(/\?\.|\.|#/)).filter((p) => !IGNORED_WORDS.has(p[0] ?? ""));
  return paths.length === 0 && literals.length === 0 ? { kind: "ignore" } : { kind: "names", paths, literals };
}

/** Every identifier-looking word in a piece of code text, including inside string literals. */
export function identifiersIn(text: string): string[] {
  return [...text.matchAll(IDENT)].map((m) => m[0]);
}

// ── code tokens ─────────────────────────────────────────────────────────────────────────────────────
const tokenCache = new Map<string, ReadonlySet<string>>();

/** Identifier and keyword tokens of code.ts (comments and JSDoc excluded), plus identifier-like string literals. */
export function codeTokens(code: string): ReadonlySet<string> {
  const cached = tokenCache.get(code);
  if (cached) return cached;
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return;
    if (ts.isIdentifier(node)) out.add(node.text);
    else if (ts.isPrivateIdentifier(node)) out.add(node.text.slice(1));
    else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (/^[A-Za-z_$][\w$]*$/.test(node.text)) out.add(node.text);
    } else if (node.kind >= ts.SyntaxKind.FirstKeyword && node.kind <= ts.SyntaxKind.LastKeyword) out.add(node.getText(sf));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  tokenCache.set(code, out);
  return out;
}

// ── API report keys ─────────────────────────────────────────────────────────────────────────────────
export interface KeyInfo {
  owner: string;
  /** What naming this key takes: the declaration, a member, union member(s). */
  tokens: string[];
  kind: "decl" | "member" | "variant" | "variantField" | "other";
  /** `type` for `X|[type="a"]` and `X[type="a"].f`. */
  discriminant?: string;
  /** `[type="a"]` for variant and variant-field keys. */
  label?: string;
  member?: string;
}

/** Reads a report key (format in tests/api/README.md); undefined for tag keys (`X@since`, `X@upgraded`). */
export function keyInfo(key: string): KeyInfo | undefined {
  if (key.includes("@")) return undefined;
  const owner = ownerOf(key);
  const rest = key.slice(owner.length);
  if (rest === "") return { owner, tokens: [owner], kind: "decl" };
  if (rest === "()") return { owner, tokens: [], kind: "other" };
  if (rest.startsWith(".") || rest.startsWith("#")) {
    const member = rest.slice(1);
    return { owner, tokens: member === "constructor" ? [] : [member], kind: "member", member };
  }
  if (rest.startsWith("|")) {
    const v = rest.slice(1);
    const label = /^\[([\w$]+)=(.*)\]$/.exec(v);
    if (label) {
      const values = [...(label[2] ?? "").matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "");
      return { owner, tokens: values, kind: "variant", discriminant: label[1], label: `[${label[1]}=${label[2]}]` };
    }
    const lit = /^"(.*)"$/.exec(v);
    if (lit) return { owner, tokens: [lit[1] ?? ""], kind: "variant" };
    return { owner, tokens: /^[A-Za-z_$][\w$]*$/.test(v) ? [v] : [], kind: "variant" };
  }
  const field = /^(\[([\w$]+)=.*\])\.(.+)$/.exec(rest);
  if (field) {
    const member = field[3] ?? "";
    return { owner, tokens: [member], kind: "variantField", discriminant: field[2], label: field[1], member };
  }
  return { owner, tokens: [], kind: "other" };
}

const lessonNum = (id: string): number => Number(id.slice(1));
const lessonId = (n: number): string => `s${String(n).padStart(2, "0")}`;

/** name → first lesson, from reports (all lessons), a dictionary (lesson → keys) and LESSON_NAMES. */
export function buildOrigins(reports: ReadonlyMap<string, ApiReport>, dictionary: ReadonlyMap<string, readonly string[]> = new Map()): Map<string, NameOrigin> {
  const origins = new Map<string, NameOrigin>();
  const add = (name: string, lesson: string, decl: boolean, curated: boolean): void => {
    if (name === "" || TS_WORDS.has(name)) return;
    const old = origins.get(name);
    if (!old || lessonNum(lesson) < lessonNum(old.lesson)) {
      origins.set(name, { lesson, decl: decl || (old?.decl ?? false), curated: curated || (old?.curated ?? false) });
    } else {
      old.decl ||= decl;
      if (curated && lesson === old.lesson) old.curated = true;
    }
  };
  const addKeys = (lesson: string, keys: Iterable<string>): void => {
    for (const key of keys) {
      const info = keyInfo(key);
      if (!info) continue;
      add(info.owner, lesson, true, false);
      for (const t of info.tokens) add(t, lesson, info.kind === "decl", false);
    }
  };
  for (const [lesson, report] of reports) addKeys(lesson, Object.keys(report));
  for (const [lesson, keys] of dictionary) addKeys(lesson, keys);
  for (const [lesson, names] of Object.entries(LESSON_NAMES)) for (const n of names) add(n, lesson, false, true);
  return origins;
}

/**
 * The lesson that introduces `name`, when that is after `lessonId` — else undefined.
 * A member or literal word (not a declaration, not in LESSON_NAMES) that this lesson's code also uses
 * (`message` in `error.message`) is treated as ordinary code, not as later vocabulary.
 */
export function laterLessonOf(name: string, lessonId: string, ctx: DocsContext): string | undefined {
  const origin = ctx.origins.get(name);
  if (!origin || lessonNum(origin.lesson) <= lessonNum(lessonId)) return undefined;
  if (!origin.decl && !origin.curated && codeTokens(ctx.code).has(name)) return undefined;
  return origin.lesson;
}

/** Names this lesson's U1 upgrades remove (prev keys gone from this report): allowed in its README. */
function removedNames(ctx: DocsContext): Set<string> {
  const out = new Set<string>();
  if (!ctx.prevReport || !ctx.report) return out;
  for (const key of Object.keys(ctx.prevReport)) {
    if (key in ctx.report) continue;
    const info = keyInfo(key);
    if (info) for (const t of info.tokens) out.add(t);
  }
  return out;
}

/** U1 upgrades by report comparison: removed keys and changed keys, except a literal union that only grew. */
export function upgradesByDiff(prev: ApiReport, next: ApiReport): string[] {
  const { removed, changed } = diffReports(prev, next);
  return [...removed, ...changed].filter((c) => !c.key.includes("@") && !(c.to !== null && isLiteralUnionGrowth(c.from, c.to))).map((c) => c.key);
}

// ── check 1: template (§6.2) ────────────────────────────────────────────────────────────────────────
export function checkTemplate(lessonId: string, readme: string): string[] {
  const out: string[] = [];
  const say = (what: string): void => void out.push(`${lessonId} README 模板 (§6.2): ${what}`);
  const doc = parseReadme(readme);
  const first = doc.lines[0] ?? "";
  const title = /^# (s\d\d): (.+?) — (.+)$/.exec(first);
  if (!title) say(`line 1 must be "# ${lessonId}: <主题> — <点题>", got "${first}"`);
  else if (title[1] !== lessonId) say(`title names ${title[1]}, expected ${lessonId}`);

  const quotes: string[] = [];
  for (const node of doc.head.filter((n) => lineOf(n) > 1)) {
    if (node.type !== "blockquote") {
      say(`line ${lineOf(node)}: only the motto and Pi 边界 quote lines may stand between the title and ## 问题`);
      break;
    }
    for (const l of linesOf(node.children)) if (lineText(l).trim() !== "") quotes.push(lineText(l).trim());
  }
  const boundary = quotes.findIndex((q) => /^Pi 边界[：:]\s*\S/.test(q));
  if (quotes.length === 0 || boundary === 0) say("missing the motto quote line `> …` after the title");
  if (boundary === -1) say("missing the quote line `> Pi 边界：…`");

  const got = doc.sections.map((s) => s.name);
  if (got.join("|") !== SECTIONS.join("|")) {
    const missing = SECTIONS.filter((s) => !got.includes(s));
    const extra = got.filter((s) => !(SECTIONS as readonly string[]).includes(s));
    const detail = [
      missing.length > 0 ? `missing ${missing.map((s) => `## ${s}`).join(", ")}` : "",
      extra.length > 0 ? `unexpected ${extra.map((s) => `## ${s}`).join(", ")}` : "",
      missing.length === 0 && extra.length === 0 ? `got ${got.map((s) => `## ${s}`).join(", ")}` : "",
    ].filter((s) => s !== "");
    say(`H2 sections must be exactly ${SECTIONS.map((s) => `## ${s}`).join(", ")} in this order; ${detail.join("; ")}`);
  }

  const trace = doc.sections.find((s) => s.name === "Pi 源码溯源");
  if (trace) {
    const source = (n: Nodes | undefined): string => (n?.position ? readme.slice(n.position.start.offset, n.position.end.offset) : "");
    const head = source(trace.nodes[0]);
    const opens = /^\s*<details(\s[^>]*)?>/.test(head) && !/^\s*<details[^>]*\bopen\b/.test(head);
    const closes = /<\/details>\s*$/.test(source(trace.nodes.at(-1)));
    if (!opens || !closes) say("## Pi 源码溯源 must be folded: its body is one <details> … </details> (not open)");
  }
  return out;
}

// ── check 2: 试一下 is real ──────────────────────────────────────────────────────────────────────────
const LESSON_COMMAND = /^(?:npm\s+(?:run|run-script)\s+s\d\d\b|npm\s+(?:run\s+)?start\b|npx\s+tsx\s+s\d\d_[\w-]+\/code\.ts\b|tsx\s+s\d\d_[\w-]+\/code\.ts\b)/;
const SHELL_LANGS: ReadonlySet<string> = new Set(["bash", "sh", "shell"]);
const OUTPUT_LANGS: ReadonlySet<string> = new Set(["", "text", "txt", "plain", "plaintext"]);

/** The command lines of a bash/sh block that run a lesson (`$ ` prompts stripped). */
export function lessonCommands(body: readonly string[]): string[] {
  return body.map((l) => l.trim().replace(/^\$\s+/, "")).filter((l) => LESSON_COMMAND.test(l));
}

/** Trailing spaces per line and trailing blank lines dropped. */
export function normalizeOutput(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

export async function checkTryIt(lessonId: string, readme: string, ctx: DocsContext): Promise<string[]> {
  const section = findSection(readme, "试一下");
  if (!section) return [];
  const say = (what: string): string => `${lessonId} README 试一下: ${what}`;
  const out: string[] = [];
  let runsThisLesson = false;
  const jobs: Promise<string | undefined>[] = [];
  section.nodes.forEach((block, i) => {
    if (block.type !== "code" || !SHELL_LANGS.has(block.lang ?? "")) return;
    const commands = lessonCommands(block.value.split("\n"));
    if (commands.length === 0) return;
    if (commands.some((c) => /\bs(\d\d)\b|\bs(\d\d)_/.exec(c)?.slice(1).find(Boolean) === lessonId.slice(1))) runsThisLesson = true;
    const next = section.nodes[i + 1];
    const shown = commands.join(" && ");
    if (next?.type !== "code" || !OUTPUT_LANGS.has(next.lang ?? "")) {
      out.push(say(`the command block at line ${lineOf(block)} (${shown}) must be followed by a \`\`\`text block with its output`));
      return;
    }
    jobs.push(
      Promise.all(commands.map((c) => ctx.run(c))).then((results) => {
        const failed = results.find((r): r is { ok: false; error: string } => !r.ok);
        if (failed) return say(`\`${shown}\` failed: ${failed.error}`);
        const got = normalizeOutput(results.map((r) => (r.ok ? r.stdout : "")).join(""));
        const expected = normalizeOutput(next.value);
        for (let k = 0; k < Math.max(got.length, expected.length); k++) {
          if (got[k] !== expected[k]) {
            const show = (s: string | undefined): string => (s === undefined ? "(end of output)" : `"${s}"`);
            return say(`output differs at line ${k + 1}: expected ${show(expected[k])}, got ${show(got[k])} (${shown}, block at line ${lineOf(next)})`);
          }
        }
        return undefined;
      }),
    );
  });
  for (const r of await Promise.all(jobs)) if (r !== undefined) out.push(r);
  if (!runsThisLesson) out.push(say(`no \`\`\`bash block runs this lesson (e.g. npm run ${lessonId}) followed by its output`));
  return out;
}

/** Every 试一下 lesson command of a README (to start the runs early, in parallel). */
export function tryItCommands(readme: string): string[] {
  const section = findSection(readme, "试一下");
  return (section?.nodes ?? []).flatMap((b) => (b.type === "code" && SHELL_LANGS.has(b.lang ?? "") ? lessonCommands(b.value.split("\n")) : []));
}

// ── check 3: 接入主线 agrees with the API diff (§6.4) ────────────────────────────────────────────────
interface Requirement {
  key: string;
  token: string;
}

/**
 * What the API diff says this lesson added: (key, token) requirements, the set of claimable names (for
 * `+`/`新增` claims: new tokens, `Owner.member`, and owners that gained anything), and the stricter sets for
 * `—` rows: `fresh` (new tokens and `Owner.member` pairs the previous report did not have) and `newDecls`
 * (declarations the previous report did not have at all).
 */
export function addedNames(ctx: DocsContext): { required: Requirement[]; claimable: Set<string>; fresh: Set<string>; newDecls: Set<string> } {
  const report = ctx.report ?? {};
  const exported = (owner: string): boolean => (report[owner] ?? "").startsWith("export");
  const required: Requirement[] = [];
  const claimable = new Set<string>();
  const fresh = new Set<string>();
  const newDecls = new Set<string>();
  if (ctx.prevLesson === undefined || !ctx.prevReport) {
    for (const key of Object.keys(report)) {
      const info = keyInfo(key);
      if (!info) continue;
      for (const t of info.tokens) claimable.add(t);
      if (info.member) claimable.add(`${info.owner}.${info.member}`);
      if (info.kind === "decl") newDecls.add(info.owner);
      if (info.kind === "decl" && exported(info.owner)) required.push({ key, token: info.owner });
    }
    for (const c of claimable) fresh.add(c);
    return { required, claimable, fresh, newDecls };
  }
  const prev = ctx.prevReport;
  const seen = new Set<string>(); // "owner\0token" pairs the previous lesson already had
  for (const [key, value] of Object.entries(prev)) {
    const info = keyInfo(key);
    if (!info) continue;
    for (const t of [info.owner, ...info.tokens, ...[...value.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "")]) seen.add(`${info.owner}\0${t}`);
  }
  const added = Object.keys(report).filter((k) => !(k in prev));
  const addedSet = new Set(added);
  const discriminants = new Map<string, Set<string>>();
  for (const key of Object.keys(report)) {
    const info = keyInfo(key);
    if (info?.discriminant) discriminants.set(info.owner, (discriminants.get(info.owner) ?? new Set()).add(info.discriminant));
  }
  for (const key of added) {
    const info = keyInfo(key);
    if (!info) continue;
    for (const t of info.tokens) claimable.add(t);
    claimable.add(info.owner);
    if (info.member) claimable.add(`${info.owner}.${info.member}`);
    if (info.kind === "decl") newDecls.add(info.owner);
    for (const t of info.tokens) if (!seen.has(`${info.owner}\0${t}`)) fresh.add(t);
    if (info.member && !seen.has(`${info.owner}\0${info.member}`)) fresh.add(`${info.owner}.${info.member}`);
    if (!exported(info.owner)) continue;
    if (info.kind === "variantField" && addedSet.has(`${info.owner}|${info.label}`)) continue;
    if ((info.kind === "member" || info.kind === "variantField") && discriminants.get(info.owner)?.has(info.member ?? "")) continue;
    for (const t of info.tokens) if (!seen.has(`${info.owner}\0${t}`)) required.push({ key, token: t });
  }
  return { required, claimable, fresh, newDecls };
}

const cellSpans = (cell: TableCell | undefined): Span[] => (cell ? inlineLines(cell).flatMap(spansOfLine) : []);
const unlabelled = (spans: readonly Span[]): Span[] => spans.filter((s) => s.label === undefined);
/** Text that claims what follows as new: `+` or `新增`. */
const CLAIM = /^\s*(?:\+|新增)/;
/** A cell that says "nothing here": `—` (also `——`, `–`, `-`, `无`). */
const EMPTY_CELL = /^\s*(?:—+|–|-|无)\s*$/;

/** The table rows under `nodes` (header rows too). */
function tableRows(nodes: readonly Nodes[]): TableRow[] {
  const rows: TableRow[] = [];
  walk(nodes, (n) => {
    if (n.type === "tableRow") rows.push(n);
  });
  return rows;
}

/** Claimed-new spans: in a table cell or line whose text starts with `+` or `新增`, or a `+` list item's first line. */
export function claimSpans(section: Section, readme: string): Span[] {
  const out: Span[] = [];
  const plusItems = new Set<Nodes>();
  walk(section.nodes, (n) => {
    const first = n.type === "listItem" ? n.children[0] : undefined;
    if (first && readme[n.position?.start.offset ?? -1] === "+") plusItems.add(first);
  });
  for (const c of containers(section.nodes)) {
    if (c.type === "tableCell") {
      if (CLAIM.test(toString(c))) out.push(...unlabelled(cellSpans(c)));
      continue;
    }
    inlineLines(c).forEach((l, i) => {
      if ((i === 0 && plusItems.has(c)) || CLAIM.test(lineText(l))) out.push(...unlabelled(spansOfLine(l)));
    });
  }
  return out;
}

/**
 * Spans claimed new by a change-table row: a table row whose SECOND cell is empty (`—`, i.e. the previous
 * lesson had nothing there) claims the unlabelled backticked names of its FIRST cell as new in this lesson.
 */
export function newRowSpans(section: Section): Span[] {
  return tableRows(section.nodes)
    .filter((row) => row.children[1] !== undefined && EMPTY_CELL.test(toString(row.children[1])))
    .flatMap((row) => unlabelled(cellSpans(row.children[0])));
}

export function checkMainline(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const section = findSection(readme, "接入主线");
  if (!section) return [];
  const say = (what: string): string => `${lessonId} README 接入主线: ${what}`;
  if (!ctx.report) return [say(`no API report tests/api/${lessonId}.json (run npx tsx scripts/api.ts)`)];
  if (ctx.prevLesson !== undefined && !ctx.prevReport) return [say(`no API report tests/api/${ctx.prevLesson}.json to diff against (run npx tsx scripts/api.ts)`)];
  const out: string[] = [];

  // one row per change: a new declaration in a row's first cell; a member there too, or in its owner's row
  const ids = (spans: readonly Span[]): Set<string> => new Set(spans.flatMap((s) => identifiersIn(s.text)));
  const rows = tableRows(section.nodes).map((row) => ({ first: ids(cellSpans(row.children[0])), all: ids(row.children.flatMap(cellSpans)) }));
  const { required, claimable, fresh, newDecls } = addedNames(ctx);
  const diffName = ctx.prevLesson ? `the API diff ${ctx.prevLesson} → ${lessonId}` : `${lessonId}'s API report`;
  const missing = new Map<string, { keys: string[]; owners: Set<string> }>();
  for (const { key, token } of required) {
    const info = keyInfo(key);
    const owner = info && info.kind !== "decl" ? info.owner : undefined;
    if (rows.some((r) => r.first.has(token) || (owner !== undefined && r.first.has(owner) && r.all.has(token)))) continue;
    const m = missing.get(token) ?? { keys: [], owners: new Set<string>() };
    m.keys.push(key);
    if (owner !== undefined) m.owners.add(owner);
    missing.set(token, m);
  }
  for (const [token, { keys, owners }] of missing) {
    const detail = keys.filter((k) => k !== token);
    const where = owners.size > 0 ? `its first cell, or the row of ${[...owners].map((o) => `\`${o}\``).join("/")}` : "its first cell";
    const what = ctx.prevReport ? `new in ${lessonId}` : `an ${lessonId} declaration (the foundation)`;
    out.push(say(`\`${token}\` is ${what}${detail.length > 0 ? ` (${detail.join(", ")})` : ""} but no change-table row names it in ${where}`));
  }

  // U1: named in the same table row or paragraph as 这是升级
  if (ctx.upgrades.length > 0) {
    const units: Span[][] = [
      ...tableRows(section.nodes).filter((r) => toString(r).includes("这是升级")).map((r) => r.children.flatMap(cellSpans)),
      ...containers(section.nodes).filter((c) => c.type !== "tableCell" && toString(c).includes("这是升级")).map((c) => inlineLines(c).flatMap(spansOfLine)),
    ];
    const upgradeNames = ids(units.flat());
    for (const key of ctx.upgrades) {
      const info = keyInfo(key);
      if (!info) continue;
      if (!upgradeNames.has(info.owner) && !(info.member && upgradeNames.has(info.member))) {
        out.push(say(`U1 upgrade \`${key}\` must be named in backticks on a line that says 「这是升级」 (R3)`));
      }
    }
  }

  // claims: a name the section says is new must be in the diff. `+`/新增 lines may also name a declaration that only
  // gained a member; a `—` row says the previous lesson had nothing there, so its names must be new themselves.
  const reportClaims = (spans: readonly Span[], literalIsNew: (literal: string) => boolean, pathIsNew: (path: string[]) => boolean): void => {
    for (const span of spans) {
      const kind = classifySpan(span.text);
      const claimed: { shown: string; ok: boolean }[] = [];
      if (kind.kind === "literal") claimed.push({ shown: `"${kind.value}"`, ok: literalIsNew(kind.value) });
      if (kind.kind === "names") {
        for (const lit of kind.literals) claimed.push({ shown: `"${lit}"`, ok: literalIsNew(lit) });
        for (const p of kind.paths) claimed.push({ shown: p.join("."), ok: pathIsNew(p) });
      }
      for (const c of claimed) if (!c.ok) out.push(say(`claims \`${c.shown}\` is new, but ${diffName} does not add it`));
    }
  };
  reportClaims(
    claimSpans(section, readme),
    (lit) => claimable.has(lit),
    (p) => (p.length === 1 ? claimable.has(p[0] ?? "") : claimable.has(`${p[0]}.${p[1]}`) || claimable.has(p[0] ?? "")),
  );
  // `—` rows: the first cell's names are new in this lesson (s01 has no previous lesson to compare with).
  if (ctx.prevLesson !== undefined) {
    reportClaims(
      newRowSpans(section),
      (lit) => fresh.has(lit),
      (p) => (p.length === 1 ? fresh.has(p[0] ?? "") : fresh.has(`${p[0]}.${p[1]}`) || newDecls.has(p[0] ?? "")),
    );
  }
  return [...new Set(out)];
}

// ── check 4: ghost nouns ────────────────────────────────────────────────────────────────────────────
const SAYS_PI = /(?<![\w-])Pi(?![\w-])/;

export function checkGhostNouns(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const tokens = codeTokens(ctx.code);
  const removed = removedNames(ctx);
  const known = (part: string): boolean => tokens.has(part) || removed.has(part) || TS_WORDS.has(part) || JS_BUILTINS.has(part);
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    const say = (what: string): void => void out.push(`${lessonId} README ${section.name}: ${what}`);
    const mainline = section.name === "接入主线";
    /** A later lesson's name in 接入主线 with a label: the label must be right. Returns whether it was handled. */
    const labelled = (shown: string, parts: readonly string[], label: string | undefined): boolean => {
      if (!mainline || label === undefined || lessonNum(label) <= lessonNum(lessonId)) return false;
      const firsts = parts.map((p) => ctx.origins.get(p)?.lesson).filter((l): l is string => l !== undefined);
      const first = firsts.length === parts.length ? firsts.reduce((a, b) => (lessonNum(a) >= lessonNum(b) ? a : b)) : undefined;
      if (first !== undefined && first !== label) say(`\`${shown}\` is labelled (${label} 加) but first appears in ${first}`);
      else if (first === undefined && ctx.reported.has(label)) say(`\`${shown}\` is labelled (${label} 加) but ${label}'s API report does not have it`);
      return true;
    };
    // a table column whose header names Pi (`| | 课程 | Pi 1.6.0 |`): its cells speak of Pi
    const piCells = new Set<Nodes>();
    walk(section.nodes, (n) => {
      if (n.type !== "table") return;
      n.children[0]?.children.forEach((head, i) => {
        if (SAYS_PI.test(toString(head))) for (const row of n.children.slice(1)) if (row.children[i]) piCells.add(row.children[i]);
      });
    });
    for (const [container, line] of containers(section.nodes).flatMap((c) => inlineLines(c).map((l) => [c, l] as const))) {
      // a name of Pi 1.6.0 on a line that says it is Pi's (`Pi 里叫 ExtensionFactory`) points the reader to Pi, not to code.ts
      const saysPi = piCells.has(container) || SAYS_PI.test(lineText(line));
      const piName = (parts: readonly string[]): boolean => saysPi && (ctx.pi.hasName(parts.slice(0, 2).join(".")) || (parts.length === 1 && ctx.pi.hasLiteral(parts[0] ?? "")));
      const laterOrGhost = (shown: string, parts: readonly string[], where: string): void => {
        const later = parts.map((p) => laterLessonOf(p, lessonId, ctx)).find((l) => l !== undefined);
        if (mainline && later !== undefined) say(`\`${shown}\`${where} comes from ${later}: label it right after the name, \`${shown}\`（${later} 加）`);
        else if (parts.some((p) => !known(p)) && !piName(parts)) say(`ghost noun \`${shown}\`${where} (not in ${ctx.lessonDir}/code.ts)`);
      };
      for (const span of spansOfLine(line)) {
        const kind = classifySpan(span.text);
        if (kind.kind === "ignore") continue;
        if (kind.kind === "literal") {
          // 接入主线里，带着后续课标签的字面量（`"toolUse"`（s04 加））要核对标签，而不是要求本课代码里有它。
          if (mainline && span.label !== undefined && lessonNum(span.label) > lessonNum(lessonId)) {
            const first = ctx.origins.get(kind.value)?.lesson;
            if (first !== span.label) say(`\`"${kind.value}"\` is labelled (${span.label} 加) but ${first === undefined ? "no lesson introduces it" : `first appears in ${first}`}`);
          } else if (!ctx.code.includes(kind.value)) say(`ghost literal \`"${kind.value}"\` (not in ${ctx.lessonDir}/code.ts)`);
          continue;
        }
        for (const lit of kind.literals) if (!ctx.code.includes(lit)) say(`ghost literal \`"${lit}"\` (not in ${ctx.lessonDir}/code.ts)`);
        for (const path of kind.paths) if (!labelled(path.join("."), path, span.label)) laterOrGhost(path.join("."), path, "");
      }
      // plain prose: a code-looking word is a name too, and must be this lesson's. A later lesson's name outside
      // 接入主线 is the vocabulary check's to report (it is a real name, just too early).
      for (const t of proseTokens(line, ghostLooking)) {
        if (PRODUCT_WORDS.has(t.name) || IGNORED_WORDS.has(t.name)) continue;
        if (!mainline && laterLessonOf(t.name, lessonId, ctx) !== undefined) continue;
        if (!labelled(t.shown, [t.name], t.label)) laterOrGhost(t.shown, [t.name], " in prose");
      }
    }
  }
  return [...new Set(out)];
}

// ── check 5: vocabulary discipline (R-写⑤) ──────────────────────────────────────────────────────────
export function checkVocabulary(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const doc = parseReadme(readme);
  const scopes = [{ name: HEAD, nodes: doc.head }, ...doc.sections.filter((s) => !VOCABULARY_EXEMPT.includes(s.name))];
  for (const { name: section, nodes } of scopes) {
    const say = (shown: string, later: string, where = ""): void =>
      void out.push(`${lessonId} README ${section}: \`${shown}\`${where} is introduced in ${later}; ${section} may only use names this lesson has explained (R-写⑤)`);
    for (const line of linesOf(nodes)) {
      for (const span of spansOfLine(line)) {
        const t = span.text.trim();
        if (/^(?:npm|npx|tsx|node)\s/.test(t) || /^[\w.-]*\/[\w./-]*$/.test(t) || FILE_EXT.test(t)) continue;
        for (const id of identifiersIn(t)) {
          const later = laterLessonOf(id, lessonId, ctx);
          if (later !== undefined) say(id, later);
        }
      }
      // plain prose (outside inline code and fenced blocks): only code-looking tokens count
      for (const { name, shown } of proseTokens(line, vocabularyLooking)) {
        const later = laterLessonOf(name, lessonId, ctx);
        if (later !== undefined) say(shown, later, " (in prose)");
      }
    }
  }
  return [...new Set(out)];
}

// ── check 6: Pi source trace is real ────────────────────────────────────────────────────────────────
const SHORT_PATHS: Readonly<Record<string, string>> = { "ai/": "packages/ai/src/", "agent/": "packages/agent/src/", "ca/": "packages/coding-agent/src/" };
const PI_REPO_URL = /^https?:\/\/github\.com\/earendil-works\/pi\/(?:blob|tree)\/[^/]+\/(.+)$/;
const PI_PATH_IN_TEXT = /(?<![\w/.-])(?:packages\/[\w./-]+|docs\/[\w./-]+\.md)/g;

/** Whether a cited path exists in Pi; undefined when the text is not a Pi path citation at all. */
export function piPathExists(raw: string, pi: PiLookup): boolean | undefined {
  const files = piPathFiles(raw, pi);
  return files === undefined ? undefined : files.length > 0;
}

/** The Pi repo paths a citation resolves to (a file, a folder, or a bare file name's matches); undefined when not a Pi path. */
function piPathFiles(raw: string, pi: PiLookup): string[] | undefined {
  const url = PI_REPO_URL.exec(raw)?.[1];
  const p = (url ?? raw).replace(/^\.\//, "").replace(/(?::\d+(?:-\d+)?|#.*)$/, "").replace(/[.,;:)]+$/, "");
  if (/[*<>{}]/.test(p) || /^[.~]/.test(p) || /^s\d\d_/.test(p) || /^(?:tests|scripts)\//.test(p) || /^[a-z]+:/.test(p)) return undefined;
  const full = (q: string): string[] => (pi.hasPath(q) ? [q] : []);
  if (p.startsWith("packages/")) return full(p);
  if (p.startsWith("docs/")) return full(`packages/coding-agent/${p}`);
  for (const [short, long] of Object.entries(SHORT_PATHS)) if (p.startsWith(short)) return full(long + p.slice(short.length));
  if (!/\.(ts|js)$/.test(p)) return undefined;
  return pi.paths.filter((known) => known === p || known.endsWith(`/${p}`));
}

export function checkPiTrace(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const section = findSection(readme, "Pi 源码溯源");
  if (!section) return [];
  const out: string[] = [];
  const say = (what: string): void => void out.push(`${lessonId} README Pi 源码溯源: ${what}`);
  const tokens = codeTokens(ctx.code);
  const plain: string[] = [];
  for (const line of linesOf(section.nodes)) {
    for (const piece of line.pieces) {
      if (piece.link !== undefined) plain.push(piece.link);
      if (!piece.code) plain.push(piece.value);
    }
    for (const span of spansOfLine(line)) {
      const text = span.text.trim();
      if (/^(["']).*\1$/s.test(text) || /\s/.test(text) || text === "") continue;
      if (text.includes("/") || FILE_EXT.test(text)) {
        if (piPathExists(text, ctx.pi) === false) say(`path \`${text}\` not found in Pi 1.6.0`);
        continue;
      }
      const kind = classifySpan(text);
      if (kind.kind !== "names") continue;
      for (const path of kind.paths) {
        if (path.every((p) => tokens.has(p))) continue; // a course name of this lesson
        if (!ctx.pi.hasName(path.slice(0, 2).join("."))) say(`\`${path.join(".")}\` not found in Pi 1.6.0`);
      }
    }
  }
  walk(section.nodes, (n) => {
    if (n.type === "code" || n.type === "html") plain.push(n.value);
  });
  for (const text of plain) {
    if (PI_REPO_URL.test(text)) {
      if (piPathExists(text, ctx.pi) === false) say(`path \`${text}\` not found in Pi 1.6.0`);
      continue;
    }
    for (const m of text.matchAll(PI_PATH_IN_TEXT)) {
      const p = m[0].replace(/[.,;:)]+$/, "");
      if (piPathExists(p, ctx.pi) === false) say(`path \`${p}\` not found in Pi 1.6.0`);
    }
  }
  return [...new Set(out)];
}

// ── check 7: a Pi name next to a Pi path is defined in that file ───────────────────────────────────
/** Between a path and the names it holds: 的, 里的, 中的, 里的内部函数, 定义了, ：… */
const PATH_THEN_NAME = /^\s*(?:(?:里|中)?(?:定义了|导出了?|的)?(?:内部|导出的)?(?:函数|类型|类|接口|方法|常量|字段)?\s*[：:]?\s*)$/;
/** Between names of one list after a path: 、 和 与 及 (a comma ends the clause). */
const NAME_LIST = /^\s*(?:、|和|与|及)\s*$/;
/** Between a name and the path that holds it: （ , ，在 , 见 … */
const NAME_THEN_PATH = /^\s*(?:[（(]\s*(?:见|在|定义在|位于)?|[，,]?\s*(?:见|在|定义在|位于))\s*$/;

interface Cited {
  kind: "path" | "name";
  /** The path as written (for messages), or the name. */
  text: string;
  files: readonly string[];
  /** Name parts (`A.b` → ["A", "b"]). */
  parts: string[];
}

/** The Pi paths and names of one line, in order, with the prose between them. */
function citations(l: InlineLine, pi: PiLookup): (Cited | string)[] {
  const items: (Cited | string)[] = [];
  const text = (s: string): void => {
    if (typeof items.at(-1) === "string") items[items.length - 1] += s;
    else items.push(s);
  };
  for (let i = 0; i < l.pieces.length; i++) {
    const p = l.pieces[i] as Piece;
    const linked = p.link !== undefined ? piPathFiles(p.link, pi) : undefined;
    if (linked !== undefined) {
      // one item for the whole link text
      while (l.pieces[i + 1]?.link === p.link) i++;
      items.push({ kind: "path", text: p.link ?? "", files: linked, parts: [] });
      continue;
    }
    if (!p.code) {
      text(p.value);
      continue;
    }
    const t = p.value.trim();
    const files = t.includes("/") || FILE_EXT.test(t) ? piPathFiles(t, pi) : undefined;
    if (files !== undefined) {
      items.push({ kind: "path", text: t, files, parts: [] });
      continue;
    }
    const kind = classifySpan(t);
    if (kind.kind === "names" && kind.literals.length === 0 && kind.paths.length === 1) items.push({ kind: "name", text: t, files: [], parts: kind.paths[0] ?? [] });
    else text(" ¶ "); // anything else breaks a pairing
  }
  return items;
}

export function checkPiFiles(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const doc = parseReadme(readme);
  for (const { name: where, nodes } of [{ name: HEAD, nodes: doc.head }, ...doc.sections]) {
    for (const line of linesOf(nodes)) {
      const items = citations(line, ctx.pi);
      const check = (path: Cited, name: Cited): void => {
        if (path.files.length === 0 || !/\.(ts|js)$|\/$|^[^.]*$/.test(path.text.replace(/[#:].*$/, ""))) return; // missing paths are the trace check's; docs hold no names
        const shown = name.parts.join(".");
        const key = name.parts.slice(0, 2).join(".");
        if (path.files.some((f) => ctx.pi.nameIn(key, f))) return;
        const defining = ctx.pi.filesDefining(key);
        if (defining.length === 0 && where === "Pi 源码溯源") return; // the trace check reports names Pi does not have
        const elsewhere = defining.length > 0 ? `Pi 1.6.0 defines it in ${defining.slice(0, 3).join(", ")}${defining.length > 3 ? ", …" : ""}` : "no file of Pi 1.6.0 defines it";
        out.push(`${lessonId} README ${where}: \`${shown}\` is not defined in \`${path.text}\` (${elsewhere})`);
      };
      items.forEach((item, i) => {
        if (typeof item === "string" || item.kind !== "path") return;
        // path, then 的/里的/：, then a name or a list of names
        for (let j = i + 1; j + 1 < items.length; j += 2) {
          const between = items[j];
          const name = items[j + 1];
          if (typeof between !== "string" || typeof name === "string" || name.kind !== "name") break;
          if (!(j === i + 1 ? PATH_THEN_NAME : NAME_LIST).test(between)) break;
          check(item, name);
        }
        // a name, then （ / ，在 / 见, then the path
        const before = items[i - 1];
        const name = items[i - 2];
        if (typeof before === "string" && name !== undefined && typeof name !== "string" && name.kind === "name" && NAME_THEN_PATH.test(before)) check(item, name);
      });
    }
  }
  return [...new Set(out)];
}

// ── check 8: banned phrases ─────────────────────────────────────────────────────────────────────────
export function checkBannedPhrases(lessonId: string, readme: string): string[] {
  // The text with line breaks inside a paragraph removed (so a phrase split over two lines is still one),
  // and the source line of each character, for the message.
  const lines = readme.replace(/\r\n?/g, "\n").split("\n");
  let flat = "";
  const lineAt: number[] = [];
  lines.forEach((line, i) => {
    const t = line.trim();
    const sep = t === "" || (lines[i + 1] ?? "").trim() === "" ? "\n" : "";
    for (let k = 0; k < t.length + sep.length; k++) lineAt.push(i + 1);
    flat += t + sep;
  });
  const out: string[] = [];
  for (const { pattern, rule } of BANNED) {
    for (const m of flat.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))) {
      out.push(`${lessonId} README: banned phrase 「${m[0]}」 at line ${lineAt[m.index] ?? 0} (${rule})`);
    }
  }
  return out.sort((a, b) => Number(/line (\d+)/.exec(a)?.[1]) - Number(/line (\d+)/.exec(b)?.[1]));
}

// ── check 9: code excerpts match code.ts ───────────────────────────────────────────────────────────
/** Fence languages whose blocks are excerpts of the lesson's code.ts. */
const EXCERPT_LANGS: ReadonlySet<string> = new Set(["ts", "typescript"]);

/**
 * Where `excerpt` (lines, trailing whitespace already trimmed) sits in `code` as a contiguous run of
 * lines: `{ ok: true }`, or the index of the excerpt's first line that no placement gets past.
 */
export function findExcerpt(excerpt: readonly string[], code: string): { ok: true } | { ok: false; differsAt: number } {
  const lines = code.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd());
  let best = 0;
  for (let start = 0; start < lines.length; start++) {
    let k = 0;
    while (k < excerpt.length && lines[start + k] === excerpt[k]) k++;
    if (k === excerpt.length) return { ok: true };
    best = Math.max(best, k);
  }
  return { ok: false, differsAt: best };
}

export function checkCodeExcerpts(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    walk(section.nodes, (b) => {
      if (b.type !== "code" || !EXCERPT_LANGS.has((b.lang ?? "").toLowerCase())) return;
      const excerpt = b.value.split("\n").map((l) => l.trimEnd());
      while (excerpt.length > 0 && excerpt[0] === "") excerpt.shift();
      while (excerpt.length > 0 && excerpt.at(-1) === "") excerpt.pop();
      if (excerpt.length === 0) return;
      const found = findExcerpt(excerpt, ctx.code);
      if (found.ok) return;
      out.push(`${lessonId} README ${section.name}: code excerpt at line ${lineOf(b)} is not in ${ctx.lessonDir}/code.ts (first differing line: "${excerpt[found.differsAt] ?? ""}")`);
    });
  }
  return out;
}

// ── all checks ──────────────────────────────────────────────────────────────────────────────────────
export const CHECKS: readonly { rule: string; check: CheckFn }[] = [
  { rule: "模板 (§6.2)", check: checkTemplate },
  { rule: "试一下 is real", check: checkTryIt },
  { rule: "接入主线 agrees with the API diff (§6.4)", check: checkMainline },
  { rule: "no ghost nouns", check: checkGhostNouns },
  { rule: "词汇纪律 (R-写⑤)", check: checkVocabulary },
  { rule: "Pi 源码溯源 exists in Pi 1.6.0", check: checkPiTrace },
  { rule: "Pi names are defined in the cited Pi file", check: checkPiFiles },
  { rule: "代码片段 matches code.ts", check: checkCodeExcerpts },
  { rule: "banned phrases (R-写④)", check: checkBannedPhrases },
];

/** Every check's violations, keyed by rule. */
export async function checkReadme(lessonId: string, readme: string, ctx: DocsContext): Promise<Map<string, string[]>> {
  const results = await Promise.all(CHECKS.map(async ({ rule, check }) => [rule, await check(lessonId, readme, ctx)] as const));
  return new Map(results);
}

// ── the real project ────────────────────────────────────────────────────────────────────────────────
export interface Lesson {
  id: string;
  dir: string;
  codePath: string;
  readmePath: string;
}

export interface Project {
  root: string;
  lessons: Lesson[];
  reports: Map<string, ApiReport>;
  upgrades: { lesson: string; key: string }[] | undefined;
  origins: Map<string, NameOrigin>;
  pi: PiLookup;
  run: CommandRunner;
}

export interface ProjectOptions {
  root?: string;
  /** Where sNN.json reports live (default `<root>/tests/api`). */
  apiDir?: string;
  run?: CommandRunner;
  /** Read U1_UPGRADES / DICTIONARY from tests/constitution.ts when it exists (default true). */
  useConstitution?: boolean;
}

/** `sNN_*` folders with a code.ts, in lesson order. */
export function discoverLessons(root: string): Lesson[] {
  return readdirSync(root)
    .filter((name) => /^s\d\d_/.test(name) && existsSync(join(root, name, "code.ts")))
    .sort()
    .map((dir) => ({ id: dir.slice(0, 3), dir, codePath: join(root, dir, "code.ts"), readmePath: join(root, dir, "README.md") }));
}

const Report = z.record(z.string(), z.string());
const Upgrades = z.array(z.object({ lesson: z.string(), key: z.string() }));

function stringKeysDeep(value: unknown, depth = 0): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === "string" ? [v] : stringKeysDeep(v, depth + 1)));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [...(depth > 0 ? [k] : []), ...stringKeysDeep(v, depth + 1)]);
  }
  return [];
}

/** U1_UPGRADES and DICTIONARY from tests/constitution.ts, when that module exists and has them. */
async function readConstitution(root: string): Promise<{ upgrades?: { lesson: string; key: string }[]; dictionary: Map<string, string[]> }> {
  const file = join(root, "tooling", "constitution.ts");
  const dictionary = new Map<string, string[]>();
  if (!existsSync(file)) return { dictionary };
  const mod: unknown = await import(pathToFileURL(file).href);
  const exports = z.object({ U1_UPGRADES: z.unknown(), DICTIONARY: z.unknown() }).partial().parse(mod);
  const upgrades = Upgrades.safeParse(exports.U1_UPGRADES);
  const dict = z.record(z.string(), z.unknown()).safeParse(exports.DICTIONARY);
  if (dict.success) for (const [lesson, v] of Object.entries(dict.data)) if (/^s\d\d$/.test(lesson)) dictionary.set(lesson, stringKeysDeep(v, 1));
  return { upgrades: upgrades.success ? upgrades.data : undefined, dictionary };
}

let piPaths: string[] | undefined;

export const realPi: PiLookup = {
  hasName: (name) => hasPiName(name),
  hasPath: (path) => hasPiPath(path),
  nameIn: (name, path) => piNameIn(name, path),
  filesDefining: (name) => piFilesDefining(name),
  hasLiteral: (value) => hasPiLiteral(value),
  get paths() {
    const idx = loadPiIndex();
    piPaths ??= [...Object.keys(idx.files), ...Object.keys(idx.internal), ...idx.docs];
    return piPaths;
  },
};

export async function loadProject(options: ProjectOptions = {}): Promise<Project> {
  const root = options.root ?? ROOT;
  const apiDir = options.apiDir ?? join(root, "tests", "api");
  const reports = new Map<string, ApiReport>();
  if (existsSync(apiDir)) {
    for (const f of readdirSync(apiDir).filter((f) => /^s\d\d\.json$/.test(f)).sort()) {
      reports.set(f.slice(0, 3), Report.parse(JSON.parse(readFileSync(join(apiDir, f), "utf8"))));
    }
  }
  const constitution = options.useConstitution === false ? { dictionary: new Map<string, string[]>() } : await readConstitution(root);
  return {
    root,
    lessons: discoverLessons(root),
    reports,
    upgrades: "upgrades" in constitution ? constitution.upgrades : undefined,
    origins: buildOrigins(reports, constitution.dictionary),
    pi: realPi,
    run: options.run ?? createCommandRunner(root),
  };
}

export function contextFor(project: Project, lesson: Lesson): DocsContext {
  const n = lessonNum(lesson.id);
  const prevLesson = n > 1 ? lessonId(n - 1) : undefined;
  const report = project.reports.get(lesson.id);
  const prevReport = prevLesson ? project.reports.get(prevLesson) : undefined;
  const upgrades = project.upgrades
    ? project.upgrades.filter((u) => u.lesson === lesson.id).map((u) => u.key)
    : prevReport && report
      ? upgradesByDiff(prevReport, report)
      : [];
  return {
    lessonDir: lesson.dir,
    code: readFileSync(lesson.codePath, "utf8"),
    report,
    prevReport,
    prevLesson,
    upgrades,
    origins: project.origins,
    reported: new Set(project.reports.keys()),
    pi: project.pi,
    run: project.run,
  };
}

/** Violations of one lesson's README (`sNN README: missing` when there is none). For scripts/check-docs.ts. */
export async function checkLesson(id: string, options: ProjectOptions = {}, project?: Project): Promise<string[]> {
  const p = project ?? (await loadProject(options));
  const lesson = p.lessons.find((l) => l.id === id);
  if (!lesson) return [`${id} README: no lesson folder ${id}_*/code.ts`];
  if (!existsSync(lesson.readmePath)) return [`${id} README: missing`];
  const results = await checkReadme(id, readFileSync(lesson.readmePath, "utf8"), contextFor(p, lesson));
  return [...results.values()].flat();
}
