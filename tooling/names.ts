// The course's names: which lesson introduces each name, and which names a lesson's code.ts uses. One definition
// for the docs checks (词汇纪律, ghost nouns) and the teaching checks (a lesson's picture): a name is "later" for a
// lesson when its first appearance — in the API reports, the constitution's DICTIONARY (§2) or LESSON_NAMES (§3) —
// is a later lesson.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { keyInfo } from "./api/keys.ts";
import { DICTIONARY, LESSON_NAMES } from "./constitution.ts";
import { type ApiReport, lessonCodePath, lessonNumber, readApiReports } from "./course.ts";

/** TypeScript keywords and primitive type names: never "later-lesson vocabulary". */
export const TS_WORDS: ReadonlySet<string> = new Set(
  "type interface class function const let var return async await yield new this void null undefined true false string number boolean unknown never any object export import from extends implements readonly private public protected static constructor of in for if else switch case default break continue throw try catch finally typeof keyof as is".split(" "),
);

// ── identifiers ───────────────────────────────────────────
const IDENT = /(?<![\w$])[A-Za-z_$][\w$]*/g;

/** Every identifier-looking word in a piece of code text, including inside string literals. */
export function identifiersIn(text: string): string[] {
  return [...text.matchAll(IDENT)].map((m) => m[0]);
}

// ── code tokens ───────────────────────────────────────────
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

// ── where each name comes from ────────────────────────────
/** How a name first enters the course. */
export interface NameOrigin {
  lesson: string;
  /** A declaration name somewhere (report decl key, dictionary type) — always a "real" course name. */
  decl: boolean;
  /** Named in LESSON_NAMES (§3) at `lesson`. */
  curated: boolean;
}

/** lesson → dictionary type → keys (the shape of DICTIONARY). */
export type Dictionary = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>>;

/** name → the lesson that introduces it: the first lesson over the reports, the dictionary and LESSON_NAMES. */
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

/** Where each name comes from, and the names a lesson's code.ts uses. */
export interface Vocabulary {
  origins: ReadonlyMap<string, NameOrigin>;
  /** lesson → its code.ts tokens. */
  tokens: (lesson: string) => ReadonlySet<string>;
}

/**
 * The lesson that introduces `name`, when that is after `lesson` — else undefined.
 * A member or literal word (not a declaration, not in LESSON_NAMES) that this lesson's code also uses
 * (`message` in `error.message`) is treated as ordinary code, not as later vocabulary.
 */
export function laterLessonOf(name: string, lesson: string, vocab: Vocabulary): string | undefined {
  const origin = vocab.origins.get(name);
  if (!origin || lessonNumber(origin.lesson) <= lessonNumber(lesson)) return undefined;
  if (!origin.decl && !origin.curated && vocab.tokens(lesson).has(name)) return undefined;
  return origin.lesson;
}

/** The real course's vocabulary: the committed API reports, DICTIONARY and LESSON_NAMES; each lesson's own code.ts. */
export function courseVocabulary(): Vocabulary {
  return { origins: buildOrigins(readApiReports(), DICTIONARY), tokens: (lesson) => codeTokens(readFileSync(lessonCodePath(lesson), "utf8")) };
}
