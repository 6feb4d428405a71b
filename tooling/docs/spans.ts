// 文档检查怎么读一行正文：它的行内代码（连同名字后面紧跟的课号标签，`ToolCall`（s04 加）），普通文字里像代码的词，
// 以及一段行内代码点的是什么名字。
import type { InlineLine } from "../markdown.ts";
import { identifiersIn } from "../names.ts";

export { identifiersIn };

/** 一段行内代码，连同后面紧跟的课号标签（`ToolCall`（s04 加）），有的话。 */
export interface Span {
  text: string;
  line: number;
  label: string | undefined;
}

const LABEL = /^\s*[（(]\s*(s\d\d)\s*(?:加|起|引入|新增)?\s*[）)]/;
const JOINER = /^\s*(?:[、,，/／]|和|与|及|或)?\s*$/;

/** 一行里的行内代码；用 、 , / 和 连起来的一串后面跟一个标签，整串都算。 */
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

/** 正文里一个像代码的词，连同后面紧跟的标签，有的话。 */
export interface ProseToken {
  name: string;
  /** 照写着的样子：调用写成 `run()`。 */
  shown: string;
  line: number;
  label: string | undefined;
}

/**
 * 一行正文（行内代码之外）里像标识符的词，各带着后面紧跟的标签。哪些词算数由 `looksLikeCode` 定。
 */
export function proseTokens(l: InlineLine, looksLikeCode: (name: string, call: boolean) => boolean): ProseToken[] {
  const out: ProseToken[] = [];
  for (const p of l.pieces) {
    if (p.code) continue;
    for (const m of p.value.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)(\(\))?/g)) {
      const name = m[1] ?? "";
      const call = m[2] !== undefined;
      if (!looksLikeCode(name, call) || (!call && FILE_EXT.test(p.value.slice(m.index).split(/[^\w$.-]/)[0] ?? ""))) continue; // APPEND_SYSTEM.md 是个文件
      const label = LABEL.exec(p.value.slice(m.index + m[0].length))?.[1];
      out.push({ name, shown: call ? `${name}()` : name, line: l.line, label });
    }
  }
  return out;
}

/** 词汇纪律认的：第一个字符之后有大写字母（SessionTree、maxTurns）、有下划线，或是调用。 */
export const vocabularyLooking = (name: string, call: boolean): boolean => call || /[A-Z]/.test(name.slice(1)) || name.includes("_");
/** 幽灵名词认的：驼峰（`maxTurns`、`ContextBlock`，`JSON` 不算）、下划线连起来的词，或是调用。 */
export const ghostLooking = (name: string, call: boolean): boolean => call || /[a-z][A-Z]/.test(name) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(name);

// ── 行内代码里的名字 ────────────────────────────────────────────────────────────────────────────
const NAME_PATH = /(?<![\w$.#])[A-Za-z_$][\w$]*(?:(?:\?\.|\.|#)[A-Za-z_$][\w$]*)*/g;
export const FILE_EXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|txt|ya?ml|sh|html|css)$/i;
/** 工具和产品的词，永远不是课程的名词。 */
export const IGNORED_WORDS: ReadonlySet<string> = new Set(["npm", "npx", "tsx", "node", "tsc", "vitest", "git", "bash", "sh", "pi", "Pi", "TypeScript", "JavaScript", "JSON"]);
/** 在正文里看着像代码（大驼峰）、却永远不是课程名词的产品名和公司名。 */
export const PRODUCT_WORDS: ReadonlySet<string> = new Set(["TypeScript", "JavaScript", "GitHub", "OpenAI", "OpenShell", "VitePress", "DeepSeek", "ChatGPT", "macOS", "npmjs"]);
/**
 * JavaScript 自己的名字——`BigInt`、`Promise`、`structuredClone` 这样的全局名字，`toString`、`then` 这样的标准原型成员：
 * README 可以谈语言本身，不用 code.ts 声明它们。
 */
export const JS_GLOBALS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(globalThis));
/** 读者只看名字就认得的方法（`toString`、`then`、`flatMap`）：常见内置原型的成员。 */
const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(
  [Object, Function, Array, String, Promise, Error, Map, Set].flatMap((c) => Object.getOwnPropertyNames(c.prototype)),
);

/**
 * JavaScript 自己定义的名字路径：全局名字（`structuredClone`、`JSON`）、内置原型上单写的方法（`toString`）、全局对象的成员
 * （`Promise.all`、`Object.hasOwn`）或它原型上的成员（`Array.prototype.flatMap`）。长一点的路径要以 JavaScript 的名字开头：
 * `ToolRegistry.find` 不是 JavaScript 的，哪怕数组有 `find`。
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

/** 一段行内代码怎么读：字符串字面量、名字（`A`、`A.b`、`A#b`、`fn()`），或者不是名字。 */
export function classifySpan(raw: string): SpanKind {
  const text = raw.trim();
  const quoted = /^(["'])(.*)\1$/s.exec(text);
  if (quoted) return { kind: "literal", value: quoted[2] ?? "" };
  if (text === "" || /\s/.test(text)) return { kind: "ignore" };
  if (/[^\x20-\x7e]/.test(text)) return { kind: "ignore" };
  if (text.includes("/") || FILE_EXT.test(text) || /^[.~-]/.test(text)) return { kind: "ignore" };
  if (/^[\w@-]+$/.test(text) && text.includes("-")) return { kind: "ignore" }; // 短横线连起来的词：包名、命令行的词
  if (/^[@<]/.test(text)) return { kind: "ignore" }; // JSDoc 标签、HTML 标签
  if (/^\d/.test(text) || /^s\d\d$/.test(text) || /^(?:[RUDP]\d+|R-.*)$/.test(text)) return { kind: "ignore" };
  if (IGNORED_WORDS.has(text)) return { kind: "ignore" };
  const literals = [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? "");
  const rest = text.replace(/"[^"]*"|'[^']*'/g, " ");
  const paths = [...rest.matchAll(NAME_PATH)].map((m) => m[0].split(/\?\.|\.|#/)).filter((p) => !IGNORED_WORDS.has(p[0] ?? ""));
  return paths.length === 0 && literals.length === 0 ? { kind: "ignore" } : { kind: "names", paths, literals };
}


