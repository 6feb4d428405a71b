// 宪法的检查：在 API 报告和课文件的语法树上跑的纯函数，数据在 ./data.ts。真课的测试和样例的测试
// （tests/constitution.test.ts，样例在 tests/fixtures/constitution/）调的是同一批函数。
// 每条违规是一行读得懂的话：`s05 → s06 R1: ProviderInput.tools removed`。
import ts from "typescript";
import type { ApiReport } from "../api/extract.ts";
import { breakingChanges, diffReports, formatViolation, type Change } from "../api/diff.ts";
import { ownerOf } from "../api/keys.ts";
import { ANY, DICTIONARY, EXTRAS, U1_UPGRADES, U2_UNIQUE, type Upgrade } from "./data.ts";

/**
 * R8 是三项检查、三个编号（EVOLUTION.md §7）：R8.1 顶层声明一个不少（这里）、R8.2 每课的文件自成一体（这里）、
 * R8.3 每课还做得到前面的课做过的事（黄金轨迹，tests/golden.test.ts）。
 */
export type Rule = "R1" | "R2" | "R6" | "R7" | "R8.1" | "R8.2" | "U1" | "U2" | "dictionary" | "@since";
export type Violation = { rule: Rule; lesson: string; line: string };
export type Reports = Record<string, ApiReport>; // 课号 → API 报告
export type Sources = Record<string, ts.SourceFile>; // 课号 → 解析好的 code.ts

const violation = (rule: Rule, lesson: string, text: string): Violation => ({ rule, lesson, line: `${lesson} ${rule}: ${text}` });
const isTagKey = (key: string) => key.includes("@");
const upgradedTags = (report: ApiReport, owner: string) => report[`${owner}@upgraded`]?.split(", ") ?? [];

/** 已有的课按先后两两相邻配对（随便哪几课都行）。 */
export function pairsOf(ids: string[]): [string, string][] {
  const sorted = [...ids].sort();
  return sorted.slice(1).map((next, i) => [sorted[i]!, next]);
}

/** 属于 prev → next 这一步的 U1 条目。 */
const upgradesIn = (prev: string, next: string, upgrades: Upgrade[]) =>
  upgrades.filter((u) => u.lesson > prev && u.lesson <= next);

const matches = (u: Upgrade, c: Change) => u.key === c.key && u.from === c.from && u.to === c.to;

// ── R1 / R2 / R8.1（像是升级的变化报 U1） ─────────────────
/**
 * 第 N-1 课的每个键在第 N 课都在、写法一字不差，只有 U1 清单里那几条和变大的字面量联合例外。报哪条规则：
 * 类成员报 R2，声明报 R8.1，其余成员报 R1；这一步清单上有这个键的升级、却不是那样升的，或者声明标着
 * `@upgraded <这一课>`（清单上没有的升级），报 U1。
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

// ── U1 清单：没发生的条目和 @upgraded 标记 ────────────────
/** 清单上的升级，那一课已经有了，那处变化却没有一字不差地发生。 */
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
 * 升级了的声明在那一课和之后每一课都带 `@upgraded sNN (U1)`；标记点的升级不在清单上的，在它第一次出现的地方报一次
 * （那一步已经把这处清单外的变化报过了就不再报）。
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

// ── U2：同名唯一 ─────────────────────────────────────────
/**
 * U2 名单上的每个名字每个文件只声明一次——整个文件里找：namespace、函数体、`declare module` 里的第二个
 * `type Output`，当类型参数用的也算——而且第一次出现之后不再多出键（删掉、改掉的已经归 R1/R2/R8 管；清单上的 U1 升级可以）。
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

/** 一个节点声明的类型名或有名字的值（type、interface、class、enum、namespace、函数、变量、类型参数）。 */
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

// ── §2 字典 ───────────────────────────────────────────────
/**
 * 一课里有的每个字典类型，报告里它的键恰好是字典的键加上 EXTRAS（值逐字相同，ANY 的只查有没有）。
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
 * 声明的 `@since` 写的是第一次有它的那一课，之后不变；导出的声明必须有。写错的标记在它第一次出现或改动的地方报。
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
      if (unchanged) continue; // 上一课已经判过
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

// ── R7：IO 边缘以外没有通往进程输出流的路 ─────────────────
/**
 * 代码够到进程输出流的全局名字：直接的（`console`、`process`）、经全局对象的（`globalThis["console"]`、`global.process`）、
 * 靠执行一段代码的（`eval`、`Function`、`require`）。`window` 和 `self` 是全局对象的别名。
 */
export const STREAM_GLOBALS = ["console", "process", "globalThis", "global", "window", "self", "eval", "Function", "require"];

/**
 * IO 边缘（D9）是 `main`、main 用到的顶层 `const X: Output = …`，和程序入口那句只调 main 的顶层 `if`。别处——core 的函数、
 * 类、箭头函数、别的顶层代码——没有一条通往进程输出流的路：不用 STREAM_GLOBALS 里的名字（`const c = console` 这种别名也算），
 * 不写 `x["console"]` / `x["stdout"]`，不碰 `.constructor`（函数的 constructor 就是 Function 构造器），也不用边缘自己的
 * Output 对象和 main。在语法树上查。
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

/** `n` 是哪一种通往输出流的路（不是就回 undefined）：输出流的全局名字、IO 边缘自己的对象、`["console"]`、`.constructor`（Function 构造器）。 */
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

/** 运行时指向一个绑定的标识符：不是属性名（`x.console`、`{ console: 1 }`），也不在类型的位置上。 */
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

/** 外层声明的名字，从最外层起：`ToolRegistry.run`、`createFakeProvider.stream`。 */
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

// ── 除了字典以外的检查（样例的课号可以随便取） ─────────────
/** 一课只许 import 这几个模块：不引用别的课，离线也跑得起来。 */
export const ALLOWED_IMPORTS = ["node:url", "zod"];

/** R8.2：每课的文件自成一体——只有静态 import，而且只从 ALLOWED_IMPORTS 里来。 */
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

/** R6：core 里没有执行权限那一套——执行的边界由部署给，拦截只靠钩子。 */
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
