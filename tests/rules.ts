// The constitution's rules as pure functions over API reports and source files.
// The real-lesson tests and the fixture tests call the same functions.
// Every violation is one readable line: `s05 → s06 R1: ProviderInput.tools removed`.
import ts from "typescript";
import { declarationsOf, type ApiReport } from "./api/extract";
import { diffReports, formatViolation, isLiteralUnionGrowth, ownerOf, type Change } from "./apidiff";
import { ANY, DICTIONARY, EXTRAS, U1_UPGRADES, U2_UNIQUE, type Upgrade } from "./constitution";

export type Rule = "R1" | "R2" | "R6" | "R7" | "R8" | "U1" | "U2" | "dictionary" | "@since";
export type Violation = { rule: Rule; lesson: string; line: string };
export type Reports = Record<string, ApiReport>; // lesson id → report
export type Sources = Record<string, ts.SourceFile>; // lesson id → parsed code.ts

const violation = (rule: Rule, lesson: string, text: string): Violation => ({ rule, lesson, line: `${lesson} ${rule}: ${text}` });
const isTagKey = (key: string) => key.includes("@");
const upgradedTags = (report: ApiReport, owner: string) => report[`${owner}@upgraded`]?.split(", ") ?? [];

/** Consecutive pairs of the lessons present, in order (works for any subset). */
export function pairsOf(ids: string[]): [string, string][] {
  const sorted = [...ids].sort();
  return sorted.slice(1).map((next, i) => [sorted[i]!, next]);
}

/** U1 entries that belong to the step prev → next. */
const upgradesIn = (prev: string, next: string, upgrades: Upgrade[]) =>
  upgrades.filter((u) => u.lesson > prev && u.lesson <= next);

/** Breaking changes of one step: removed or changed keys, minus literal unions that only grew. */
function breakingChanges(prev: ApiReport, next: ApiReport): Change[] {
  const { removed, changed } = diffReports(prev, next);
  return [...removed, ...changed].filter(
    (c) => !isTagKey(c.key) && !(c.to !== null && isLiteralUnionGrowth(c.from, c.to)),
  );
}

const matches = (u: Upgrade, c: Change) => u.key === c.key && u.from === c.from && u.to === c.to;

// ── R1 / R2 / R8 (+ U1 for changes that claim or resemble an upgrade) ──
/**
 * Every key of lesson N-1 is in lesson N with the same text, except the exact U1 list and
 * literal unions that grow. Rule id: class members R2, declarations R8, other members R1;
 * U1 when this step's listed upgrade of that key happens differently, or the declaration is
 * tagged `@upgraded <this lesson>` (an upgrade that is not on the list).
 */
export function checkAppendOnly(reports: Reports, upgrades: Upgrade[] = U1_UPGRADES): Violation[] {
  const out: Violation[] = [];
  for (const [a, b] of pairsOf(Object.keys(reports))) {
    const prev = reports[a]!;
    const next = reports[b]!;
    for (const c of breakingChanges(prev, next)) {
      const allowed = upgradesIn(a, b, upgrades);
      if (allowed.some((u) => matches(u, c))) continue;
      const owner = ownerOf(c.key);
      const listed = allowed.find((u) => u.key === c.key);
      let rule: Rule;
      let note = "";
      if (listed) {
        rule = "U1";
        note = `(the U1 list says ${listed.from} → ${listed.to ?? "removed"})`;
      } else if (upgradedTags(next, owner).includes(`${b} (U1)`)) {
        rule = "U1";
        note = "(upgrade not on the U1 list)";
      } else if (c.key === owner) {
        rule = "R8";
      } else {
        rule = prev[owner]?.endsWith("class") ? "R2" : "R1";
      }
      out.push({ rule, lesson: b, line: formatViolation(a, b, rule, c, note) });
    }
  }
  return out;
}

// ── U1 list: stale entries and @upgraded tags ─────────────
/** A listed upgrade whose lesson is present but whose exact change does not happen. */
export function checkU1Stale(reports: Reports, upgrades: Upgrade[] = U1_UPGRADES): Violation[] {
  const out: Violation[] = [];
  for (const [a, b] of pairsOf(Object.keys(reports))) {
    for (const u of upgradesIn(a, b, upgrades)) {
      const happened = breakingChanges(reports[a]!, reports[b]!).some((c) => matches(u, c));
      if (!happened) {
        out.push(violation("U1", u.lesson, `listed upgrade ${u.key} did not happen (${u.from} → ${u.to ?? "removed"})`));
      }
    }
  }
  return out;
}

/**
 * An upgraded declaration carries `@upgraded sNN (U1)` in that lesson and every later one;
 * a tag naming no listed upgrade is reported once, where it first appears (unless that step
 * already reported the unlisted change itself).
 */
export function checkU1Tags(reports: Reports, upgrades: Upgrade[] = U1_UPGRADES): Violation[] {
  const out: Violation[] = [];
  const ids = Object.keys(reports).sort();
  for (const u of upgrades) {
    const owner = ownerOf(u.key);
    for (const id of ids.filter((id) => id >= u.lesson && reports[id]![owner] !== undefined)) {
      if (!upgradedTags(reports[id]!, owner).includes(`${u.lesson} (U1)`)) {
        out.push(violation("U1", id, `${owner} lacks @upgraded ${u.lesson} (U1)`));
      }
    }
  }
  const reported = new Set<string>();
  ids.forEach((id, i) => {
    const prev = i > 0 ? reports[ids[i - 1]!]! : {};
    for (const key of Object.keys(reports[id]!).filter((k) => k.endsWith("@upgraded"))) {
      const owner = ownerOf(key);
      for (const tag of upgradedTags(reports[id]!, owner)) {
        const known = upgrades.some((u) => ownerOf(u.key) === owner && `${u.lesson} (U1)` === tag);
        if (known || reported.has(`${owner} ${tag}`)) continue;
        reported.add(`${owner} ${tag}`);
        const changed = breakingChanges(prev, reports[id]!).some((c) => ownerOf(c.key) === owner);
        if (!changed) out.push(violation("U1", id, `${owner} is tagged @upgraded ${tag}, but the U1 list has no such upgrade`));
      }
    }
  });
  return out;
}

// ── U2: one definition, one shape ────────────────────────
/**
 * Each U2 name is declared once per file, and after its first appearance it gains no keys
 * (removals and changes are already R1/R2/R8; listed U1 upgrades are allowed).
 */
export function checkU2(reports: Reports, sources: Sources, names: string[] = U2_UNIQUE): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const name of names) {
      const count = declarationsOf(sf).filter((d) => d.name.text === name).length;
      if (count > 1) out.push(violation("U2", id, `${name} is defined ${count} times`));
    }
  }
  for (const [a, b] of pairsOf(Object.keys(reports))) {
    const prev = reports[a]!;
    for (const key of diffReports(prev, reports[b]!).added) {
      const owner = ownerOf(key);
      if (names.includes(owner) && prev[owner] !== undefined && !isTagKey(key)) {
        out.push({ rule: "U2", lesson: b, line: `${a} → ${b} U2: ${key} added (${owner} must keep one shape)` });
      }
    }
  }
  return out;
}

// ── §2 dictionary ─────────────────────────────────────────
/**
 * For every dictionary type present at a lesson, its keys in the report equal the dictionary's
 * keys plus the EXTRAS (values exact unless ANY).
 */
export function checkDictionary(
  reports: Reports,
  dictionary: Record<string, Record<string, Record<string, string>>> = DICTIONARY,
  extras: Record<string, { since: string; decision: string }> = EXTRAS,
): Violation[] {
  const out: Violation[] = [];
  for (const [id, report] of Object.entries(reports).sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [type, members] of Object.entries(dictionary[id] ?? {})) {
      if (report[type] === undefined) {
        out.push(violation("dictionary", id, `${type} missing`));
        continue;
      }
      const expected: Record<string, string> = { ...members };
      for (const [key, extra] of Object.entries(extras)) {
        if (ownerOf(key) === type && extra.since <= id) expected[key] = ANY;
      }
      const actual = Object.keys(report).filter((k) => ownerOf(k) === type && !isTagKey(k));
      for (const [key, value] of Object.entries(expected)) {
        const got = report[key];
        if (got === undefined) out.push(violation("dictionary", id, `${key} missing (expected ${value})`));
        else if (value !== ANY && got !== value) out.push(violation("dictionary", id, `${key} is ${got}, expected ${value}`));
      }
      for (const key of actual.filter((k) => !(k in expected))) {
        out.push(violation("dictionary", id, `${key} is not in the dictionary (${report[key]}); list it in EXTRAS with a decision id`));
      }
    }
  }
  return out;
}

// ── @since ────────────────────────────────────────────────
/**
 * A declaration's `@since` names the first lesson that has it and never changes; exported
 * declarations must have one. A wrong tag is reported where it first appears or changes.
 */
export function checkSince(reports: Reports): Violation[] {
  const out: Violation[] = [];
  const first = new Map<string, string>();
  let prev: ApiReport = {};
  for (const id of Object.keys(reports).sort()) {
    const report = reports[id]!;
    for (const [name, kind] of Object.entries(report).filter(([k]) => ownerOf(k) === k)) {
      if (!first.has(name)) first.set(name, id);
      const tag = report[`${name}@since`];
      const unchanged = prev[name] !== undefined && prev[`${name}@since`] === tag;
      if (unchanged) continue; // already judged in the previous lesson
      if (tag === undefined) {
        if (kind.startsWith("export ")) out.push(violation("@since", id, `${name} has no @since tag`));
      } else if (tag !== first.get(name)) {
        out.push(violation("@since", id, `${name} is tagged @since ${tag}, but first appears in ${first.get(name)}`));
      }
    }
    prev = report;
  }
  return out;
}

// ── R7: console only at the IO edge ──────────────────────
/**
 * `console` may appear only inside `main` and inside top-level `const X: Output = …` that main uses
 * (D9). Checked on the syntax tree: any other function, class, arrow or top-level code fails.
 */
export function checkConsole(sources: Sources): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const main = sf.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === "main");
    const usedByMain = new Set<string>();
    const collect = (n: ts.Node): void => {
      if (ts.isIdentifier(n)) usedByMain.add(n.text);
      n.forEachChild(collect);
    };
    if (main?.body) collect(main.body);
    const isOutputConst = (s: ts.Statement) =>
      ts.isVariableStatement(s) &&
      (s.declarationList.flags & ts.NodeFlags.Const) !== 0 &&
      s.declarationList.declarations.every(
        (d) =>
          ts.isIdentifier(d.name) &&
          usedByMain.has(d.name.text) &&
          d.type !== undefined &&
          ts.isTypeReferenceNode(d.type) &&
          d.type.typeName.getText() === "Output",
      );
    const edge = new Set<ts.Node>(sf.statements.filter((s) => s === main || isOutputConst(s)));

    const visit = (n: ts.Node): void => {
      if (isConsoleReference(n) && !edge.has(topLevelStatement(n))) {
        const { line } = sf.getLineAndCharacterOfPosition(n.getStart());
        out.push(violation("R7", id, `console in ${where(n)} (line ${line + 1})`));
      }
      n.forEachChild(visit);
    };
    visit(sf);
  }
  return out;
}

/** `console`, `globalThis.console`; not a property named console (`x.console`, `{ console: 1 }`). */
function isConsoleReference(n: ts.Node): boolean {
  if (!ts.isIdentifier(n) || n.text !== "console") return false;
  const p = n.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === n) return p.expression.getText() === "globalThis";
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p)) && p.name === n) return false;
  return true;
}

function topLevelStatement(n: ts.Node): ts.Node {
  let cur = n;
  while (cur.parent && !ts.isSourceFile(cur.parent)) cur = cur.parent;
  return cur;
}

/** Names of the enclosing declarations, outermost first: `ToolRegistry.run`, `createFakeProvider.stream`. */
function where(n: ts.Node): string {
  const names: string[] = [];
  for (let cur: ts.Node | undefined = n.parent; cur && !ts.isSourceFile(cur); cur = cur.parent) {
    if (
      (ts.isFunctionDeclaration(cur) ||
        ts.isClassDeclaration(cur) ||
        ts.isMethodDeclaration(cur) ||
        ts.isVariableDeclaration(cur) ||
        ts.isPropertyAssignment(cur) ||
        ts.isPropertyDeclaration(cur)) &&
      cur.name !== undefined &&
      ts.isIdentifier(cur.name)
    ) {
      names.unshift(cur.name.text);
    }
  }
  return names.length > 0 ? names.join(".") : "top-level code";
}

// ── everything but the dictionary (fixtures use arbitrary lesson ids) ──
/** A lesson may import only these modules: it stays self-contained (no other lesson) and runs offline. */
export const ALLOWED_IMPORTS = ["node:url", "zod"];

/** R8 layout: every lesson file stands alone — static imports only, and only from ALLOWED_IMPORTS. */
export function checkImports(sources: Sources): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const visit = (n: ts.Node): void => {
      const line = () => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
        const from = n.moduleSpecifier.text;
        if (!ALLOWED_IMPORTS.includes(from)) {
          out.push(violation("R8", id, `imports "${from}" (line ${line()}); a lesson may import only ${ALLOWED_IMPORTS.join(", ")}`));
        }
      }
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
        out.push(violation("R8", id, `dynamic import() (line ${line()}); a lesson may import only ${ALLOWED_IMPORTS.join(", ")}`));
      }
      n.forEachChild(visit);
    };
    visit(sf);
  }
  return out;
}

/** R6: no execution-permission system in the core — execution boundaries come from deployment, hooks are the only interceptor. */
export function checkNoExecutionPolicy(sources: Sources): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const s of sf.statements) {
      const name = (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s)) ? s.name?.text : undefined;
      if (name !== undefined && /Policy|Executor|Sandbox/.test(name)) {
        out.push(violation("R6", id, `declares ${name}; the core has no execution policy (hooks are the only interceptor)`));
      }
    }
  }
  return out;
}

export function checkStructure(reports: Reports, sources: Sources): Violation[] {
  return [
    ...checkAppendOnly(reports),
    ...checkU1Stale(reports),
    ...checkU1Tags(reports),
    ...checkU2(reports, sources),
    ...checkSince(reports),
    ...checkConsole(sources),
    ...checkImports(sources),
    ...checkNoExecutionPolicy(sources),
  ];
}
