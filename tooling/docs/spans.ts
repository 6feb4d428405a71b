// How the docs checks read a line of prose: its inline code spans (with the lesson label right after a name,
// `ToolCall`（s04 加）), the code-looking words of its plain prose, and what an inline code span names.
import type { InlineLine } from "../markdown.ts";
import { identifiersIn } from "../names.ts";

export { identifiersIn };

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
const NAME_PATH = /(?<![\w$.#])[A-Za-z_$][\w$]*(?:(?:\?\.|\.|#)[A-Za-z_$][\w$]*)*/g;
export const FILE_EXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|txt|ya?ml|sh|html|css)$/i;
/** Tool and product words that are never course nouns. */
export const IGNORED_WORDS: ReadonlySet<string> = new Set(["npm", "npx", "tsx", "node", "tsc", "vitest", "git", "bash", "sh", "pi", "Pi", "TypeScript", "JavaScript", "JSON"]);
/** Product and company names that look like code in prose (PascalCase) but are never course nouns. */
export const PRODUCT_WORDS: ReadonlySet<string> = new Set(["TypeScript", "JavaScript", "GitHub", "OpenAI", "OpenShell", "VitePress", "DeepSeek", "ChatGPT", "macOS", "npmjs"]);
/**
 * JavaScript's own names — globals such as `BigInt`, `Promise`, `structuredClone`, and members of the standard prototypes
 * such as `toString`, `then`: a README may talk about the language itself without code.ts declaring them.
 */
export const JS_GLOBALS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(globalThis));
/** Methods every reader knows by their bare name (`toString`, `then`, `flatMap`): members of the common built-in prototypes. */
const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(
  [Object, Function, Array, String, Promise, Error, Map, Set].flatMap((c) => Object.getOwnPropertyNames(c.prototype)),
);

/**
 * A name path that JavaScript itself defines: a global (`structuredClone`, `JSON`), a bare method of a built-in
 * prototype (`toString`), a member of a global (`Promise.all`, `Object.hasOwn`) or of its prototype (`Array.prototype.flatMap`).
 * A longer path needs a JavaScript root: `ToolRegistry.find` is not JavaScript's, even though arrays have a `find`.
 */
export function isJsBuiltinPath(parts: readonly string[]): boolean {
  const [root, ...rest] = parts;
  if (root !== undefined && rest.length === 0 && PROTOTYPE_MEMBERS.has(root)) return true;
  if (root === undefined || !JS_GLOBALS.has(root)) return false;
  const value: unknown = (globalThis as Record<string, unknown>)[root];
  let members = new Set<string>();
  if ((typeof value === "function" || typeof value === "object") && value !== null) {
    const proto: unknown = typeof value === "function" ? (value as { prototype?: unknown }).prototype : undefined;
    members = new Set([...Object.getOwnPropertyNames(value), ...(typeof proto === "object" && proto !== null ? Object.getOwnPropertyNames(proto) : [])]);
  }
  return rest.every((part) => part === "prototype" || members.has(part));
}

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


