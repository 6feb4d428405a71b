/**
 * Docs checks for the lesson READMEs (EVOLUTION.md §6.2 template, §6.3 R-写①–⑤, §6.4 接入主线), plus
 * README code excerpts against code.ts.
 *
 * Every check is a function `(lessonId, readmeText, context) => string[]` (the 试一下 check is async
 * because it runs commands through the injected `context.run`). Real READMEs and the fixtures under
 * tests/fixtures/docs/ go through the same functions. Messages always start with `sNN README …`.
 * Check one lesson by hand: `npx tsx scripts/check-docs.ts s03`.
 *
 * ── What a README writer must do to pass ───────────────────────────────────────────────────────────
 * 模板 (§6.2)
 *   Line 1 `# sNN: <主题> — <点题>` (em dash `—`). Between it and `## 问题` only quote lines: the motto
 *   `> …` first, then `> Pi 边界：…` (`>`-only lines allowed). Then exactly the H2s 问题, 解决方案, 工作原理,
 *   试一下, 接入主线, 接下来, Pi 源码溯源, in this order (H3s are free). The whole Pi 源码溯源 body is one
 *   `<details>` … `</details>` (first and last non-blank lines; not `<details open>`).
 * 试一下
 *   A ```bash / ```sh block whose lines run a lesson — `npm run sNN`, `npm start`, `npx tsx sNN_x/code.ts`
 *   (`$ ` prompts allowed; other lines such as comments are not run) — must be followed, with only blank
 *   lines between, by a ```text (or plain ```) block holding exactly the commands' stdout (trailing
 *   spaces per line and trailing blank lines ignored). At least one such block must run this lesson.
 *   `npm run` is resolved through package.json scripts and run as `tsx <file>` (no npm banner).
 * 接入主线
 *   Named = an identifier inside any inline code span or fenced block (e.g. a ```diff) of the section.
 *   Required: every name the API diff (tests/api/sNN.json minus the previous lesson's report) adds for an
 *   exported declaration: new declaration names (demo helpers too; one row listing them is enough), new
 *   members (`registry`, `Agent.registry` or a type literal containing it), new union members
 *   (`"toolUse"`/`toolUse`, `ToolResultMessage`, the `tool_call` of a new variant). Not required: tag keys,
 *   constructors, discriminant fields, fields of a new variant (naming the variant covers them), pairs the
 *   previous report already had. s01 instead names every s01 declaration (its permanent foundation).
 *   U1 (tests/constitution.ts U1_UPGRADES, else removed/changed keys): the upgraded type or member in
 *   backticks in the same table row or prose paragraph as 这是升级.
 *   Claims: a table cell, list item or line whose text starts with `+` or `新增` claims each space-free
 *   backticked name in it (`X`, `A.b`, `"lit"`) as new in this lesson; each must be in the API diff.
 *   A change-table row whose SECOND cell is `—` (上一节 had nothing; also `-`, `–`, `无`) claims the
 *   unlabelled backticked names of its FIRST cell as new, more strictly: a declaration the previous report
 *   did not have, a member pair or union member it did not have (`Agent.registry`, `registry`,
 *   `"toolUse"`); an owner that merely gained a member (`Provider` in s03) is not new. Not in s01.
 *   A later lesson's name only with a label right after the backticks: `ToolCall`（s04 加） or
 *   `ToolCall` (s04 加) (also 起/引入/新增, or none); one label after a list joined by 、 , / 和 covers
 *   the list. The label must be the lesson that introduces the name. Earlier-lesson labels are just prose.
 * Ghost nouns (every section but Pi 源码溯源)
 *   A space-free inline code span that is not a path, filename, command word, kebab-case word, number,
 *   lesson id (`s04`) or rule id (`R5`, `U1`) is read as names (`A`, `A.b`, `A#b`, `fn()`, `A<B>`); every
 *   part must be an identifier/keyword token or string-literal content of this lesson's code.ts
 *   (comments don't count). A quoted literal (`"toolUse"`, even with spaces) must occur in code.ts.
 *   Names this lesson removes by U1 (s03 `complete`) are allowed.
 * 词汇纪律 (R-写⑤)
 *   In 问题/解决方案/工作原理/接下来 no identifier inside inline code (spaces or not) may be a later
 *   lesson's name (labels don't help there). Later names = first appearance in the API reports, the
 *   constitution's DICTIONARY and LESSON_NAMES (§3). A member/literal word outside LESSON_NAMES that this
 *   lesson's code also uses (`message` in `error.message`) is not counted.
 *   Plain prose of those sections (outside inline code and fences, markdown escapes undone) is held to the
 *   same rule, but only for code-looking tokens: an uppercase letter after the first character
 *   (SessionTree, maxTurns), an underscore (tool_call) or a call (run()). Plain words (run, model) pass.
 * Pi 源码溯源
 *   Backticked Pi names (`SessionManager.branch`, `runAgentLoop()`; the first two parts are checked) and
 *   paths (`packages/…`, `docs/x.md`, short `agent/…` `ai/…` `ca/…`, bare `agent-loop.ts`) must exist in
 *   Pi 1.6.0 (tests/pi-index.json); `packages/…`/`docs/….md` paths in plain text and links too. Names of
 *   this lesson's code, quoted strings and spans with spaces are skipped: write Pi string values quoted
 *   (`"toolcall_delta"`).
 * Banned phrases (R-写④/⑤): BANNED_PHRASES, anywhere in the file.
 * 代码片段 (every section but Pi 源码溯源)
 *   A ```ts / ```typescript block must be a contiguous run of this lesson's code.ts lines, exactly
 *   (indentation included; trailing whitespace and the block's leading/trailing blank lines ignored).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { z } from "zod";
import { hasPiName, hasPiPath, loadPiIndex } from "./pi-index";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Lessons whose README is not written yet: docs.test.ts skips them instead of failing with
 * `sNN README: missing`. Remove an id when its README lands.
 */
export const README_PENDING: readonly string[] = [];

/** Phrases no README may contain, with the rule that bans them (R-写④ translated-sounding, R-写⑤). */
export const BANNED_PHRASES: readonly { phrase: string; rule: string }[] = [
  { phrase: "接住一轮", rule: "R-写④" },
  { phrase: "穿过 core", rule: "R-写④" },
  { phrase: "穿过 Core", rule: "R-写④" },
  { phrase: "穿过core", rule: "R-写④" },
  { phrase: "穿过Core", rule: "R-写④" },
  { phrase: "本章不讲", rule: "R-写⑤" },
];

/** The H2 sections of §6.2, in order. */
export const SECTIONS = ["问题", "解决方案", "工作原理", "试一下", "接入主线", "接下来", "Pi 源码溯源"] as const;

/** Narrative sections under 词汇纪律 (R-写⑤). */
export const NARRATIVE_SECTIONS: readonly string[] = ["问题", "解决方案", "工作原理", "接下来"];

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
export type RunResult = { ok: true; stdout: string } | { ok: false; error: string };
/** Runs one command line from a 试一下 block (as written, e.g. `npm run s03`) and returns its stdout. */
export type CommandRunner = (command: string) => Promise<RunResult>;

export interface PiLookup {
  hasName(name: string): boolean;
  hasPath(path: string): boolean;
  /** Every known Pi repo path (source files and docs), for short/suffix path forms. */
  paths: readonly string[];
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

// ── markdown ────────────────────────────────────────────────────────────────────────────────────────
export type Block =
  | { kind: "text"; line: number; text: string }
  | { kind: "fence"; line: number; lang: string; body: string[]; closed: boolean };

export interface Section {
  name: string;
  line: number;
  blocks: Block[];
}

export interface ParsedReadme {
  lines: string[];
  /** Blocks before the first H2 (title included). */
  head: Block[];
  sections: Section[];
}

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** Splits a README into text lines and fenced blocks, grouped by H2 sections (headings in fences ignored). */
export function parseReadme(text: string): ParsedReadme {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[2]?.startsWith("`") && open[3]?.includes("`"))) {
      const marker = open[2] ?? "```";
      const indent = open[1]?.length ?? 0;
      const body: string[] = [];
      let closed = false;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j] ?? "";
        const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(l);
        if (close && close[1]?.[0] === marker[0] && (close[1]?.length ?? 0) >= marker.length) {
          closed = true;
          break;
        }
        body.push(l.slice(Math.min(indent, /^ */.exec(l)?.[0].length ?? 0)));
      }
      blocks.push({ kind: "fence", line: i + 1, lang: (open[3] ?? "").trim().split(/\s+/)[0] ?? "", body, closed });
      i = j;
      continue;
    }
    blocks.push({ kind: "text", line: i + 1, text: line });
  }
  const head: Block[] = [];
  const sections: Section[] = [];
  for (const block of blocks) {
    const h2 = block.kind === "text" ? /^##\s+(.*?)\s*#*\s*$/.exec(block.text) : null;
    if (h2 && block.kind === "text" && !block.text.startsWith("###")) {
      sections.push({ name: h2[1] ?? "", line: block.line, blocks: [] });
      continue;
    }
    (sections.at(-1)?.blocks ?? head).push(block);
  }
  return { lines, head, sections };
}

export interface Span {
  text: string;
  line: number;
  /** The whole source line, and the span's [start, end) in it (end is after the closing backticks). */
  source: string;
  start: number;
  end: number;
}

/** Inline code spans (`x`, ``x``, <code>x</code>) of one text line. */
export function spansOfLine(source: string, line: number): Span[] {
  const out: Span[] = [];
  let i = 0;
  while (i < source.length) {
    if (source[i] === "\\") {
      i += 2;
      continue;
    }
    if (source[i] !== "`") {
      i++;
      continue;
    }
    let n = 0;
    while (source[i + n] === "`") n++;
    const fence = "`".repeat(n);
    let j = source.indexOf(fence, i + n);
    while (j !== -1 && source[j + n] === "`") {
      let k = j;
      while (source[k] === "`") k++;
      j = source.indexOf(fence, k);
    }
    if (j === -1) {
      i += n;
      continue;
    }
    let text = source.slice(i + n, j);
    if (text.length > 2 && text.startsWith(" ") && text.endsWith(" ")) text = text.slice(1, -1);
    out.push({ text, line, source, start: i, end: j + n });
    i = j + n;
  }
  for (const m of source.matchAll(/<code>(.*?)<\/code>/g)) {
    out.push({ text: m[1] ?? "", line, source, start: m.index, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}

export function sectionSpans(section: Section): Span[] {
  return section.blocks.flatMap((b) => (b.kind === "text" ? spansOfLine(b.text, b.line) : []));
}

function findSection(readme: string, name: string): Section | undefined {
  return parseReadme(readme).sections.find((s) => s.name === name);
}

// ── names in inline code ────────────────────────────────────────────────────────────────────────────
const IDENT = /(?<![\w$])[A-Za-z_$][\w$]*/g;
const NAME_PATH = /(?<![\w$.#])[A-Za-z_$][\w$]*(?:(?:\?\.|\.|#)[A-Za-z_$][\w$]*)*/g;
const FILE_EXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|txt|ya?ml|sh|html|css)$/i;
/** Tool and product words that are never course nouns. */
export const IGNORED_WORDS: ReadonlySet<string> = new Set(["npm", "npx", "tsx", "node", "tsc", "vitest", "git", "bash", "sh", "pi", "Pi", "TypeScript", "JavaScript", "JSON"]);
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

/** A span followed by `（s04 加）` / `(s04 加)` (or a group `A`、`B`（s04 加）) → the label's lesson. */
export function labelsOf(spans: readonly Span[]): (string | undefined)[] {
  const labels: (string | undefined)[] = spans.map(() => undefined);
  for (let i = spans.length - 1; i >= 0; i--) {
    const span = spans[i];
    if (!span) continue;
    const after = span.source.slice(span.end);
    const own = /^\s*[（(]\s*(s\d\d)\s*(?:加|起|引入|新增)?\s*[）)]/.exec(after);
    if (own) {
      labels[i] = own[1];
      continue;
    }
    const next = spans[i + 1];
    if (next && next.line === span.line) {
      const between = span.source.slice(span.end, next.start);
      if (/^\s*(?:[、,，/／]|和|与|及|或)?\s*$/.test(between)) labels[i] = labels[i + 1];
    }
  }
  return labels;
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
  const owner = /^[^.#|[@(= ]+/.exec(key)?.[0] ?? key;
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

/** `: "a" | "b"` → literals, or null. */
function literalUnion(text: string): { prefix: string; literals: string[] } | null {
  const m = /^((?:readonly )?\??: )?(.*)$/.exec(text);
  const literals = (m?.[2] ?? "").split(" | ");
  if (!literals.every((l) => /^"[^"]*"$/.test(l))) return null;
  return { prefix: m?.[1] ?? "", literals };
}

/** U1 upgrades by report comparison: removed keys and changed keys, except a literal union that only grew. */
export function upgradesByDiff(prev: ApiReport, next: ApiReport): string[] {
  const out: string[] = [];
  for (const [key, from] of Object.entries(prev)) {
    if (key.includes("@")) continue;
    const to = next[key];
    if (to === undefined) {
      out.push(key);
      continue;
    }
    if (to === from) continue;
    const a = literalUnion(from);
    const b = literalUnion(to);
    if (a && b && a.prefix === b.prefix && a.literals.every((l) => b.literals.includes(l))) continue;
    out.push(key);
  }
  return out;
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

  const head = doc.head.filter((b) => b.line > 1 && !(b.kind === "text" && b.text.trim() === ""));
  const quotes: string[] = [];
  for (const b of head) {
    if (b.kind === "text" && /^\s*>/.test(b.text)) {
      const q = b.text.replace(/^\s*>\s?/, "").trim();
      if (q !== "") quotes.push(q);
    } else {
      say(`line ${b.line}: only the motto and Pi 边界 quote lines may stand between the title and ## 问题`);
      break;
    }
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
    const body = trace.blocks.filter((b) => !(b.kind === "text" && b.text.trim() === ""));
    const firstBlock = body[0];
    const lastBlock = body.at(-1);
    const opens = firstBlock?.kind === "text" && /^\s*<details(\s[^>]*)?>/.test(firstBlock.text) && !/<details[^>]*\bopen\b/.test(firstBlock.text);
    const closes = lastBlock?.kind === "text" && /<\/details>\s*$/.test(lastBlock.text);
    if (!opens || !closes) say("## Pi 源码溯源 must be folded: its body is one <details> … </details> (not open)");
  }
  return out;
}

// ── check 2: 试一下 is real ──────────────────────────────────────────────────────────────────────────
const LESSON_COMMAND = /^(?:npm\s+(?:run|run-script)\s+s\d\d\b|npm\s+(?:run\s+)?start\b|npx\s+tsx\s+s\d\d_[\w-]+\/code\.ts\b|tsx\s+s\d\d_[\w-]+\/code\.ts\b)/;

/** The command lines of a bash/sh block that run a lesson (`$ ` prompts stripped). */
export function lessonCommands(body: readonly string[]): string[] {
  return body
    .map((l) => l.trim().replace(/^\$\s+/, ""))
    .filter((l) => LESSON_COMMAND.test(l));
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
  const blocks = section.blocks.filter((b) => !(b.kind === "text" && b.text.trim() === ""));
  let runsThisLesson = false;
  const jobs: Promise<string | undefined>[] = [];
  blocks.forEach((block, i) => {
    if (block.kind !== "fence" || !["bash", "sh", "shell"].includes(block.lang)) return;
    const commands = lessonCommands(block.body);
    if (commands.length === 0) return;
    if (commands.some((c) => /\bs(\d\d)\b|\bs(\d\d)_/.exec(c)?.slice(1).find(Boolean) === lessonId.slice(1))) runsThisLesson = true;
    const next = blocks[i + 1];
    const shown = commands.join(" && ");
    if (!next || next.kind !== "fence" || !["", "text", "txt", "plain", "plaintext"].includes(next.lang)) {
      out.push(say(`the command block at line ${block.line} (${shown}) must be followed by a \`\`\`text block with its output`));
      return;
    }
    jobs.push(
      Promise.all(commands.map((c) => ctx.run(c))).then((results) => {
        const failed = results.find((r): r is { ok: false; error: string } => !r.ok);
        if (failed) return say(`\`${shown}\` failed: ${failed.error}`);
        const got = normalizeOutput(results.map((r) => (r.ok ? r.stdout : "")).join(""));
        const expected = normalizeOutput(next.body.join("\n"));
        const n = Math.max(got.length, expected.length);
        for (let k = 0; k < n; k++) {
          if (got[k] !== expected[k]) {
            const show = (s: string | undefined): string => (s === undefined ? "(end of output)" : `"${s}"`);
            return say(`output differs at line ${k + 1}: expected ${show(expected[k])}, got ${show(got[k])} (${shown}, block at line ${next.line})`);
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

type TextBlock = Extract<Block, { kind: "text" }>;

/** A section's text as units: each table row alone, each prose paragraph (consecutive non-blank lines) together. */
export function textUnits(section: Section): TextBlock[][] {
  const units: TextBlock[][] = [];
  let para: TextBlock[] = [];
  const flush = (): void => {
    if (para.length > 0) units.push(para);
    para = [];
  };
  for (const b of section.blocks) {
    if (b.kind !== "text" || b.text.trim() === "") {
      flush();
      continue;
    }
    if (b.text.trim().startsWith("|")) {
      flush();
      units.push([b]);
    } else para.push(b);
  }
  flush();
  return units;
}

/** Claimed-new spans: in a table cell, list item or line whose text starts with `+` or `新增`. */
export function claimSpans(section: Section): Span[] {
  const out: Span[] = [];
  for (const b of section.blocks) {
    if (b.kind !== "text") continue;
    const spans = spansOfLine(b.text, b.line);
    const labels = labelsOf(spans);
    const keep = (from: number, to: number): void => {
      spans.forEach((s, i) => {
        if (s.start >= from && s.end <= to && labels[i] === undefined) out.push(s);
      });
    };
    const t = b.text.trim();
    if (t.startsWith("|")) {
      let pos = b.text.indexOf("|");
      while (pos !== -1) {
        let end = b.text.indexOf("|", pos + 1);
        while (end !== -1 && b.text[end - 1] === "\\") end = b.text.indexOf("|", end + 1);
        if (end === -1) break;
        if (/^\s*(?:\+|新增)/.test(b.text.slice(pos + 1, end))) keep(pos + 1, end);
        pos = end;
      }
    } else if (/^(?:(?:[-*]|\d+\.)\s+)?(?:\+|新增)/.test(t)) keep(0, b.text.length);
  }
  return out;
}

/** The cells of a table row as [start, end) ranges between unescaped pipes (text outside the outer pipes dropped). */
export function tableCells(text: string): { start: number; end: number }[] {
  const cells: { start: number; end: number }[] = [];
  let pos = text.indexOf("|");
  while (pos !== -1) {
    let end = text.indexOf("|", pos + 1);
    while (end !== -1 && text[end - 1] === "\\") end = text.indexOf("|", end + 1);
    if (end === -1) break;
    cells.push({ start: pos + 1, end });
    pos = end;
  }
  return cells;
}

/** A cell that says "nothing here": `—` (also `——`, `–`, `-`, `无`). */
const EMPTY_CELL = /^\s*(?:—+|–|-|无)\s*$/;

/**
 * Spans claimed new by a change-table row: a table row whose SECOND cell is empty (`—`, i.e. the previous
 * lesson had nothing there) claims the unlabelled backticked names of its FIRST cell as new in this lesson.
 */
export function newRowSpans(section: Section): Span[] {
  const out: Span[] = [];
  for (const b of section.blocks) {
    if (b.kind !== "text" || !b.text.trim().startsWith("|")) continue;
    const cells = tableCells(b.text);
    const first = cells[0];
    const second = cells[1];
    if (!first || !second || !EMPTY_CELL.test(b.text.slice(second.start, second.end))) continue;
    if (cells.every((c) => /^\s*:?-+:?\s*$/.test(b.text.slice(c.start, c.end)))) continue; // |-|-| delimiter row
    const spans = spansOfLine(b.text, b.line);
    const labels = labelsOf(spans);
    spans.forEach((s, i) => {
      if (s.start >= first.start && s.end <= first.end && labels[i] === undefined) out.push(s);
    });
  }
  return out;
}

export function checkMainline(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const section = findSection(readme, "接入主线");
  if (!section) return [];
  const say = (what: string): string => `${lessonId} README 接入主线: ${what}`;
  if (!ctx.report) return [say(`no API report tests/api/${lessonId}.json (run npx tsx scripts/api.ts)`)];
  if (ctx.prevLesson !== undefined && !ctx.prevReport) return [say(`no API report tests/api/${ctx.prevLesson}.json to diff against (run npx tsx scripts/api.ts)`)];
  const out: string[] = [];
  const named = new Set<string>();
  for (const s of sectionSpans(section)) for (const id of identifiersIn(s.text)) named.add(id);
  for (const b of section.blocks) if (b.kind === "fence") for (const id of identifiersIn(b.body.join("\n"))) named.add(id);

  const { required, claimable, fresh, newDecls } = addedNames(ctx);
  const diffName = ctx.prevLesson ? `the API diff ${ctx.prevLesson} → ${lessonId}` : `${lessonId}'s API report`;
  const missing = new Map<string, string[]>();
  for (const r of required) if (!named.has(r.token)) missing.set(r.token, [...(missing.get(r.token) ?? []), r.key]);
  for (const [token, keys] of missing) {
    const what = ctx.prevReport ? `new in ${lessonId}` : `an ${lessonId} declaration (the foundation)`;
    const detail = keys.filter((k) => k !== token);
    out.push(say(`\`${token}\` is ${what} but not named here${detail.length > 0 ? ` (${detail.join(", ")})` : ""}`));
  }

  // U1: named on a line / paragraph with 这是升级
  if (ctx.upgrades.length > 0) {
    const upgradeNames = new Set<string>();
    for (const unit of textUnits(section)) {
      if (!unit.some((b) => b.text.includes("这是升级"))) continue;
      for (const b of unit) for (const s of spansOfLine(b.text, b.line)) for (const id of identifiersIn(s.text)) upgradeNames.add(id);
    }
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
    claimSpans(section),
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
export function checkGhostNouns(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const tokens = codeTokens(ctx.code);
  const removed = removedNames(ctx);
  const known = (part: string): boolean => tokens.has(part) || removed.has(part) || TS_WORDS.has(part);
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    const say = (what: string): void => void out.push(`${lessonId} README ${section.name}: ${what}`);
    const mainline = section.name === "接入主线";
    const spans = sectionSpans(section);
    const labels = labelsOf(spans);
    spans.forEach((span, i) => {
      const kind = classifySpan(span.text);
      if (kind.kind === "ignore") return;
      if (kind.kind === "literal") {
        // 接入主线里，带着后续课标签的字面量（`"toolUse"`（s04 加））要核对标签，而不是要求本课代码里有它。
        const label = mainline ? labels[i] : undefined;
        if (label !== undefined && lessonNum(label) > lessonNum(lessonId)) {
          const first = ctx.origins.get(kind.value)?.lesson;
          if (first !== label) say(`\`"${kind.value}"\` is labelled (${label} 加) but ${first === undefined ? "no lesson introduces it" : `first appears in ${first}`}`);
          return;
        }
        if (!ctx.code.includes(kind.value)) say(`ghost literal \`"${kind.value}"\` (not in ${ctx.lessonDir}/code.ts)`);
        return;
      }
      for (const lit of kind.literals) if (!ctx.code.includes(lit)) say(`ghost literal \`"${lit}"\` (not in ${ctx.lessonDir}/code.ts)`);
      for (const path of kind.paths) {
        const shown = path.join(".");
        const label = mainline ? labels[i] : undefined;
        if (label !== undefined && lessonNum(label) > lessonNum(lessonId)) {
          const firsts = path.map((p) => ctx.origins.get(p)?.lesson).filter((l): l is string => l !== undefined);
          const first = firsts.length === path.length ? firsts.reduce((a, b) => (lessonNum(a) >= lessonNum(b) ? a : b)) : undefined;
          if (first !== undefined && first !== label) say(`\`${shown}\` is labelled (${label} 加) but first appears in ${first}`);
          else if (first === undefined && ctx.reported.has(label)) say(`\`${shown}\` is labelled (${label} 加) but ${label}'s API report does not have it`);
          continue;
        }
        const later = path.map((p) => laterLessonOf(p, lessonId, ctx)).find((l) => l !== undefined);
        if (mainline && later !== undefined) {
          say(`\`${shown}\` comes from ${later}: label it right after the name, \`${shown}\`（${later} 加）`);
          continue;
        }
        const ghost = path.find((p) => !known(p));
        if (ghost !== undefined) say(`ghost noun \`${shown}\` (not in ${ctx.lessonDir}/code.ts)`);
      }
    });
  }
  return [...new Set(out)];
}

// ── check 5: vocabulary discipline (R-写⑤) ──────────────────────────────────────────────────────────
/** A line with its inline code spans blanked out and markdown backslash escapes (`tool\_call`) undone. */
export function proseOfLine(source: string, line: number): string {
  let text = source;
  for (const span of spansOfLine(source, line)) text = text.slice(0, span.start) + " ".repeat(span.end - span.start) + text.slice(span.end);
  return text.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");
}

/**
 * Identifier-like tokens of plain prose: camelCase/PascalCase (an uppercase letter after the first
 * character: `SessionTree`, `maxTurns`), snake_case (`tool_call`), or a call `name()`. Plain words
 * (`run`, `model`, `append`) are not code-looking and are skipped. Returns the name and how it was written.
 */
export function proseIdentifiers(text: string): { name: string; shown: string }[] {
  const out: { name: string; shown: string }[] = [];
  for (const m of text.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)(\(\))?/g)) {
    const name = m[1] ?? "";
    const call = m[2] !== undefined;
    if (call || /[A-Z]/.test(name.slice(1)) || name.includes("_")) out.push({ name, shown: call ? `${name}()` : name });
  }
  return out;
}

export function checkVocabulary(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  for (const section of parseReadme(readme).sections) {
    if (!NARRATIVE_SECTIONS.includes(section.name)) continue;
    for (const span of sectionSpans(section)) {
      const t = span.text.trim();
      if (/^(?:npm|npx|tsx|node)\s/.test(t) || /^[\w.-]*\/[\w./-]*$/.test(t) || FILE_EXT.test(t)) continue;
      for (const id of identifiersIn(t)) {
        const later = laterLessonOf(id, lessonId, ctx);
        if (later !== undefined) {
          out.push(`${lessonId} README ${section.name}: \`${id}\` is introduced in ${later}; ${section.name} may only use names this lesson has explained (R-写⑤)`);
        }
      }
    }
    // Plain prose (outside inline code and fenced blocks): only code-looking tokens count.
    for (const b of section.blocks) {
      if (b.kind !== "text") continue;
      for (const { name, shown } of proseIdentifiers(proseOfLine(b.text, b.line))) {
        const later = laterLessonOf(name, lessonId, ctx);
        if (later !== undefined) {
          out.push(`${lessonId} README ${section.name}: \`${shown}\` (in prose) is introduced in ${later}; ${section.name} may only use names this lesson has explained (R-写⑤)`);
        }
      }
    }
  }
  return [...new Set(out)];
}

// ── check 6: Pi source trace is real ────────────────────────────────────────────────────────────────
const SHORT_PATHS: Readonly<Record<string, string>> = { "ai/": "packages/ai/src/", "agent/": "packages/agent/src/", "ca/": "packages/coding-agent/src/" };

/** Whether a cited path exists in Pi; undefined when the text is not a Pi path citation at all. */
export function piPathExists(raw: string, pi: PiLookup): boolean | undefined {
  const p = raw.replace(/^\.\//, "").replace(/(?::\d+(?:-\d+)?|#.*)$/, "").replace(/[.,;:)]+$/, "");
  if (/[*<>{}]/.test(p) || /^[.~]/.test(p) || /^s\d\d_/.test(p) || /^(?:tests|scripts)\//.test(p)) return undefined;
  if (p.startsWith("packages/")) return pi.hasPath(p);
  if (p.startsWith("docs/")) return pi.hasPath(`packages/coding-agent/${p}`);
  for (const [short, long] of Object.entries(SHORT_PATHS)) if (p.startsWith(short)) return pi.hasPath(long + p.slice(short.length));
  if (!/\.(ts|js)$/.test(p)) return undefined;
  return pi.paths.some((known) => known === p || known.endsWith(`/${p}`));
}

export function checkPiTrace(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const section = findSection(readme, "Pi 源码溯源");
  if (!section) return [];
  const out: string[] = [];
  const say = (what: string): void => void out.push(`${lessonId} README Pi 源码溯源: ${what}`);
  const tokens = codeTokens(ctx.code);
  const inSpans = new Set<string>();
  for (const span of sectionSpans(section)) {
    const text = span.text.trim();
    if (/^(["']).*\1$/s.test(text) || /\s/.test(text) || text === "") continue;
    if (text.includes("/") || FILE_EXT.test(text)) {
      inSpans.add(text);
      const exists = piPathExists(text, ctx.pi);
      if (exists === false) say(`path \`${text}\` not found in Pi 1.6.0`);
      continue;
    }
    const kind = classifySpan(text);
    if (kind.kind !== "names") continue;
    for (const path of kind.paths) {
      if (path.every((p) => tokens.has(p))) continue; // a course name of this lesson
      const name = path.slice(0, 2).join(".");
      if (!ctx.pi.hasName(name)) say(`\`${path.join(".")}\` not found in Pi 1.6.0`);
    }
  }
  for (const b of section.blocks) {
    const text = b.kind === "text" ? b.text : b.body.join("\n");
    for (const m of text.matchAll(/(?<![\w/.-])(?:packages\/[\w./-]+|docs\/[\w./-]+\.md)/g)) {
      const p = m[0].replace(/[.,;:)]+$/, "");
      if (inSpans.has(p)) continue;
      if (piPathExists(p, ctx.pi) === false) say(`path \`${p}\` not found in Pi 1.6.0`);
    }
  }
  return [...new Set(out)];
}

// ── check 7: banned phrases ─────────────────────────────────────────────────────────────────────────
export function checkBannedPhrases(lessonId: string, readme: string): string[] {
  const out: string[] = [];
  readme.split("\n").forEach((line, i) => {
    for (const { phrase, rule } of BANNED_PHRASES) {
      if (line.includes(phrase)) out.push(`${lessonId} README: banned phrase 「${phrase}」 at line ${i + 1} (${rule})`);
    }
  });
  return out;
}

// ── check 8: code excerpts match code.ts ───────────────────────────────────────────────────────────
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
    for (const b of section.blocks) {
      if (b.kind !== "fence" || !EXCERPT_LANGS.has(b.lang.toLowerCase())) continue;
      const excerpt = b.body.map((l) => l.trimEnd());
      while (excerpt.length > 0 && excerpt[0] === "") excerpt.shift();
      while (excerpt.length > 0 && excerpt.at(-1) === "") excerpt.pop();
      if (excerpt.length === 0) continue;
      const found = findExcerpt(excerpt, ctx.code);
      if (found.ok) continue;
      out.push(`${lessonId} README ${section.name}: code excerpt at line ${b.line} is not in ${ctx.lessonDir}/code.ts (first differing line: "${excerpt[found.differsAt] ?? ""}")`);
    }
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
  const file = join(root, "tests", "constitution.ts");
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

// ── running 试一下 commands ──────────────────────────────────────────────────────────────────────────
/** `npm run s03` / `npm start` / `npx tsx s03_stream/code.ts` → the file and args tsx runs, or an error. */
export function resolveCommand(command: string, scripts: Readonly<Record<string, string>>): { file: string; args: string[] } | string {
  const words = command.trim().split(/\s+/);
  let tsxArgs: string[];
  if (words[0] === "npm") {
    const dash = words.indexOf("--");
    const extra = dash === -1 ? [] : words.slice(dash + 1);
    const head = dash === -1 ? words : words.slice(0, dash);
    const name = head[1] === "start" ? "start" : head[1] === "run" || head[1] === "run-script" ? head[2] : undefined;
    if (name === undefined || head.length > (head[1] === "start" ? 2 : 3)) return `cannot read \`${command}\``;
    const script = scripts[name];
    if (script === undefined) return `npm script "${name}" is not in package.json`;
    const parts = script.trim().split(/\s+/);
    if (parts[0] !== "tsx") return `npm script "${name}" is \`${script}\`, not \`tsx <file>\``;
    tsxArgs = [...parts.slice(1), ...extra];
  } else if (words[0] === "npx" && words[1] === "tsx") tsxArgs = words.slice(2);
  else if (words[0] === "tsx") tsxArgs = words.slice(1);
  else return `not a lesson command: \`${command}\``;
  const [file, ...args] = tsxArgs;
  if (file === undefined || /["'|&;<>$`]/.test(tsxArgs.join(" "))) return `cannot run \`${command}\` without a shell`;
  return { file, args };
}

/**
 * The real runner: resolves npm scripts through package.json and runs `tsx <file>` from `root` with
 * node directly (no npm banner). Each distinct command runs once per process (cached promise); at most
 * one run per CPU at a time.
 */
export function createCommandRunner(root: string = ROOT, timeoutMs = 30_000): CommandRunner {
  const pkg = z.object({ scripts: z.record(z.string(), z.string()).default({}) }).parse(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
  const tsxCli = createRequire(join(root, "package.json")).resolve("tsx/cli");
  const cache = new Map<string, Promise<RunResult>>();
  let active = 0;
  const waiting: (() => void)[] = [];
  const limit = Math.max(2, availableParallelism());
  const slot = async (): Promise<void> => {
    if (active < limit) {
      active++;
      return;
    }
    await new Promise<void>((res) => waiting.push(res));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  const exec = async (file: string, args: string[]): Promise<RunResult> => {
    await slot();
    try {
      return await new Promise<RunResult>((res) => {
        const child = spawn(process.execPath, [tsxCli, file, ...args], {
          cwd: root,
          env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
        child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.on("error", (e) => {
          clearTimeout(timer);
          res({ ok: false, error: e.message });
        });
        child.on("close", (code, signal) => {
          clearTimeout(timer);
          if (code === 0) res({ ok: true, stdout });
          else res({ ok: false, error: `exit ${code ?? signal}: ${stderr.trim().split("\n").slice(0, 3).join(" / ")}` });
        });
      });
    } finally {
      release();
    }
  };
  return (command) => {
    const target = resolveCommand(command, pkg.scripts);
    if (typeof target === "string") return Promise.resolve({ ok: false, error: target });
    const key = [target.file, ...target.args].join("\0");
    let job = cache.get(key);
    if (!job) {
      job = exec(target.file, target.args);
      cache.set(key, job);
    }
    return job;
  };
}

/** Every 试一下 lesson command of a README (to start the runs early, in parallel). */
export function tryItCommands(readme: string): string[] {
  const section = findSection(readme, "试一下");
  if (!section) return [];
  return section.blocks.flatMap((b) => (b.kind === "fence" && ["bash", "sh", "shell"].includes(b.lang) ? lessonCommands(b.body) : []));
}
