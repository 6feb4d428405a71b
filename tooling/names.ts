// 课程的名字：每个名字哪一课引入，一课的 code.ts 用了哪些名字。文档检查（词汇纪律、幽灵名词）和教学检查（每节一张图）
// 用的是同一份：一个名字第一次出现的地方——API 报告、宪法的 DICTIONARY（§2）或 LESSON_NAMES（§3，都在
// tooling/constitution/data.ts）——在后面的课，它对这一课就是「后面的课的名字」。
import { readFileSync } from "node:fs";
import ts from "typescript";
import { keyInfo } from "./api/keys.ts";
import { DICTIONARY, LESSON_NAMES } from "./constitution/data.ts";
import { type ApiReport, lessonCodePath, lessonNumber, readApiReports } from "./course.ts";

/** TypeScript 的关键字和基本类型名：永远不算「后面的课的名字」。 */
export const TS_WORDS: ReadonlySet<string> = new Set(
  "type interface class function const let var return async await yield new this void null undefined true false string number boolean unknown never any object export import from extends implements readonly private public protected static constructor of in for if else switch case default break continue throw try catch finally typeof keyof as is".split(" "),
);

// ── 标识符 ────────────────────────────────────────────────
const IDENT = /(?<![\w$])[A-Za-z_$][\w$]*/g;

/** 一段代码文字里每个像标识符的词，字符串字面量里的也算。 */
export function identifiersIn(text: string): string[] {
  return [...text.matchAll(IDENT)].map((m) => m[0]);
}

// ── 代码里的词 ────────────────────────────────────────────
const tokenCache = new Map<string, ReadonlySet<string>>();

/** code.ts 里的标识符和关键字（注释和 JSDoc 不算），外加像标识符的字符串字面量。 */
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

// ── 每个名字从哪来 ────────────────────────────────────────
/** 一个名字第一次进课程的方式。 */
export interface NameOrigin {
  lesson: string;
  /** 某处的声明名（报告里的声明键、字典类型）——总是课程「真正的」名字。 */
  decl: boolean;
  /** 在 LESSON_NAMES（§3）里写在 `lesson` 那一课。 */
  curated: boolean;
}

/** 课 → 字典类型 → 键（DICTIONARY 的形状）。 */
export type Dictionary = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>>;

/** 名字 → 引入它的课：报告、字典和 LESSON_NAMES 里最早的那一课。 */
export function buildOrigins(
  reports: ReadonlyMap<string, ApiReport>,
  dictionary: Dictionary = {},
  lessonNames: Readonly<Record<string, readonly string[]>> = LESSON_NAMES,
): Map<string, NameOrigin> {
  const origins = new Map<string, NameOrigin>();
  const add = (name: string, lesson: string, decl: boolean, curated: boolean): void => {
    if (name === "" || TS_WORDS.has(name)) return;
    const old = origins.get(name);
    if (!old || lessonNumber(lesson) < lessonNumber(old.lesson)) {
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
  for (const [lesson, types] of Object.entries(dictionary)) for (const keys of Object.values(types)) addKeys(lesson, Object.keys(keys));
  for (const [lesson, names] of Object.entries(lessonNames)) for (const n of names) add(n, lesson, false, true);
  return origins;
}

/** 每个名字从哪来，和每课的 code.ts 用了哪些名字。 */
export interface Vocabulary {
  origins: ReadonlyMap<string, NameOrigin>;
  /** 课 → 它的 code.ts 里的词。 */
  tokens: (lesson: string) => ReadonlySet<string>;
}

/**
 * 引入 `name` 的课，要是它在 `lesson` 之后——否则 undefined。
 * 成员名或字面量里的词（不是声明、不在 LESSON_NAMES 里），这一课的代码自己也用到的（`error.message` 的 `message`），
 * 算普通代码，不算后面的课的名字。
 */
export function laterLessonOf(name: string, lesson: string, vocab: Vocabulary): string | undefined {
  const origin = vocab.origins.get(name);
  if (!origin || lessonNumber(origin.lesson) <= lessonNumber(lesson)) return undefined;
  if (!origin.decl && !origin.curated && vocab.tokens(lesson).has(name)) return undefined;
  return origin.lesson;
}

/** 真课程的词汇：提交的 API 报告、DICTIONARY 和 LESSON_NAMES，以及每课自己的 code.ts。 */
export function courseVocabulary(): Vocabulary {
  return { origins: buildOrigins(readApiReports(), DICTIONARY), tokens: (lesson) => codeTokens(readFileSync(lessonCodePath(lesson), "utf8")) };
}
