// The constitution's rules as pure functions over API reports and source files.
// The real-lesson tests and the fixture tests call the same functions.
// Every violation is one readable line: `s05 → s06 R1: ProviderInput.tools removed`.
import ts from "typescript";
import { declarationsOf, type ApiReport } from "./api/extract.ts";
import { breakingChanges, diffReports, formatViolation, type Change } from "./api/diff.ts";
import { ownerOf } from "./api/keys.ts";
import { ANY, DICTIONARY, EXTRAS, U1_UPGRADES, U2_UNIQUE, type Upgrade } from "./constitution.ts";

/**
 * R8 is three checks with three ids (EVOLUTION.md §7): R8.1 no top-level declaration is removed (here), R8.2 each lesson
 * file stands alone (here), R8.3 each lesson still does what earlier lessons did (the golden traces, tests/golden.test.ts).
 */
export type Rule = "R1" | "R2" | "R6" | "R7" | "R8.1" | "R8.2" | "U1" | "U2" | "dictionary" | "@since";
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

const matches = (u: Upgrade, c: Change) => u.key === c.key && u.from === c.from && u.to === c.to;

// ── R1 / R2 / R8.1 (+ U1 for changes that claim or resemble an upgrade) ──
/**
 * Every key of lesson N-1 is in lesson N with the same text, except the exact U1 list and
 * literal unions that grow. Rule id: class members R2, declarations R8.1, other members R1;
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
        rule = "R8.1";
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
 * Each U2 name is declared once per file — anywhere in it: a second `type Output` inside a namespace, a
 * function body, a `declare module` or as a type parameter counts too — and after its first appearance it
 * gains no keys (removals and changes are already R1/R2/R8; listed U1 upgrades are allowed).
 */
export function checkU2(reports: Reports, sources: Sources, names: string[] = U2_UNIQUE): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const found = new Map<string, ts.Node[]>();
    const visit = (n: ts.Node): void => {
      const name = declaredName(n);
      if (name !== undefined && names.includes(name)) found.set(name, [...(found.get(name) ?? []), n]);
      n.forEachChild(visit);
    };
    visit(sf);
    for (const name of names) {
      const decls = found.get(name) ?? [];
      if (decls.length <= 1) continue;
      const nested = decls.filter((d) => topLevelStatement(d) !== d && !(ts.isVariableDeclaration(d) && topLevelStatement(d) === d.parent.parent));
      const inside = nested.map((d) => `${where(d)}, line ${sf.getLineAndCharacterOfPosition(d.getStart(sf)).line + 1}`);
      out.push(violation("U2", id, `${name} is defined ${decls.length} times${inside.length > 0 ? ` (also inside ${inside.join("; ")})` : ""}`));
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

/** The name a node declares as a type or a named value (type, interface, class, enum, namespace, function, variable, type parameter). */
function declaredName(n: ts.Node): string | undefined {
  if (
    ts.isTypeAliasDeclaration(n) ||
    ts.isInterfaceDeclaration(n) ||
    ts.isEnumDeclaration(n) ||
    ts.isTypeParameterDeclaration(n) ||
    ((ts.isClassDeclaration(n) || ts.isClassExpression(n) || ts.isFunctionDeclaration(n)) && n.name !== undefined) ||
    (ts.isModuleDeclaration(n) && ts.isIdentifier(n.name)) ||
    (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name))
  ) {
    return n.name?.getText();
  }
  return undefined;
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

// ── R7: no path to the process's streams outside the IO edge ──
/**
 * Globals through which code reaches the process's streams: directly (`console`, `process`), through the
 * global object (`globalThis["console"]`, `global.process`), or by evaluating code (`eval`, `Function`,
 * `require`). `window` and `self` are the global object's other names.
 */
export const STREAM_GLOBALS = ["console", "process", "globalThis", "global", "window", "self", "eval", "Function", "require"];

/**
 * The IO edge (D9) is `main`, the top-level `const X: Output = …` that main uses, and the program's entry
 * guard (a top-level `if` that only calls main). Everywhere else — core functions, classes, arrows, other
 * top-level code — no path to the process's streams: no STREAM_GLOBALS binding (aliases such as
 * `const c = console` included), no `x["console"]` / `x["stdout"]` element access, no `.constructor`
 * (a function's constructor is the Function constructor), and no use of the edge's own Output objects or of main.
 * Checked on the syntax tree.
 */
export function checkStreams(sources: Sources): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const main = sf.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === "main");
    const usedByMain = new Set<string>();
    const collect = (n: ts.Node): void => {
      if (ts.isIdentifier(n)) usedByMain.add(n.text);
      n.forEachChild(collect);
    };
    if (main?.body) collect(main.body);
    const outputConsts = sf.statements.filter(
      (s): s is ts.VariableStatement =>
        ts.isVariableStatement(s) &&
        (s.declarationList.flags & ts.NodeFlags.Const) !== 0 &&
        s.declarationList.declarations.every(
          (d) =>
            ts.isIdentifier(d.name) &&
            usedByMain.has(d.name.text) &&
            d.type !== undefined &&
            ts.isTypeReferenceNode(d.type) &&
            d.type.typeName.getText() === "Output",
        ),
    );
    const callsMainOnly = (st: ts.Statement): boolean => {
      if (ts.isBlock(st)) return st.statements.length > 0 && st.statements.every(callsMainOnly);
      if (!ts.isExpressionStatement(st)) return false;
      const e = ts.isAwaitExpression(st.expression) ? st.expression.expression : st.expression;
      return ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "main";
    };
    const guards = sf.statements.filter((s) => ts.isIfStatement(s) && s.elseStatement === undefined && callsMainOnly(s.thenStatement));
    const edge = new Set<ts.Node>([...(main ? [main] : []), ...outputConsts, ...guards]);
    const edgeNames = new Set([...(main ? ["main"] : []), ...outputConsts.flatMap((s) => s.declarationList.declarations.map((d) => d.name.getText()))]);

    const visit = (n: ts.Node): void => {
      const what = edge.has(topLevelStatement(n)) ? undefined : streamPath(n, edgeNames);
      if (what !== undefined) {
        const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
        out.push(violation("R7", id, `${what} in ${where(n)} (line ${line + 1})`));
      }
      n.forEachChild(visit);
    };
    visit(sf);
  }
  return out;
}

/** What path to the streams `n` is, if any: a stream global, the IO edge's own object, `["console"]`, `.constructor` (the Function constructor). */
function streamPath(n: ts.Node, edgeNames: ReadonlySet<string>): string | undefined {
  if (ts.isIdentifier(n) && isValueReference(n)) {
    if (STREAM_GLOBALS.includes(n.text)) return n.text;
    if (edgeNames.has(n.text)) return `the IO edge's ${n.text}`;
  }
  if (ts.isElementAccessExpression(n) && ts.isStringLiteralLike(n.argumentExpression)) {
    const key = n.argumentExpression.text;
    if (STREAM_GLOBALS.includes(key) || key === "stdout" || key === "stderr") return `["${key}"]`;
  }
  if (ts.isPropertyAccessExpression(n) && n.name.text === "constructor") return ".constructor";
  if (ts.isElementAccessExpression(n) && ts.isStringLiteralLike(n.argumentExpression) && n.argumentExpression.text === "constructor") return '["constructor"]';
  return undefined;
}

/** An identifier that names a binding at run time: not a property name (`x.console`, `{ console: 1 }`), not a type position. */
function isValueReference(n: ts.Identifier): boolean {
  const p = n.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === n) return false;
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p)) && p.name === n) return false;
  if (ts.isTypeReferenceNode(p) || ts.isTypeQueryNode(p) || ts.isQualifiedName(p)) return false;
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
    } else if (ts.isModuleDeclaration(cur)) names.unshift(ts.isIdentifier(cur.name) ? `namespace ${cur.name.text}` : `module "${cur.name.text}"`);
  }
  return names.length > 0 ? names.join(".") : "top-level code";
}

// ── everything but the dictionary (fixtures use arbitrary lesson ids) ──
/** A lesson may import only these modules: it stays self-contained (no other lesson) and runs offline. */
export const ALLOWED_IMPORTS = ["node:url", "zod"];

/** R8.2: every lesson file stands alone — static imports only, and only from ALLOWED_IMPORTS. */
export function checkImports(sources: Sources): Violation[] {
  const out: Violation[] = [];
  for (const [id, sf] of Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const visit = (n: ts.Node): void => {
      const line = () => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
        const from = n.moduleSpecifier.text;
        if (!ALLOWED_IMPORTS.includes(from)) {
          out.push(violation("R8.2", id, `imports "${from}" (line ${line()}); a lesson may import only ${ALLOWED_IMPORTS.join(", ")}`));
        }
      }
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
        out.push(violation("R8.2", id, `dynamic import() (line ${line()}); a lesson may import only ${ALLOWED_IMPORTS.join(", ")}`));
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
    ...checkStreams(sources),
    ...checkImports(sources),
    ...checkNoExecutionPolicy(sources),
  ];
}
