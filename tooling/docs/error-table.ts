/**
 * 文档检查：run 的报错一览（issue 23 第 4 项）。写 README 的人要做到：
 *
 *   API 报告里第一次出现 `ToolRegistry#run` 的那一课，有一张表头第一格含「报错」的表。每行第一格恰好一段行内代码：
 *   要么是 `run` 能回的一句话，代码填值的地方写成 `<…>`（`error: unknown tool "<工具名>"`），要么是代码把几句话
 *   连起来用的分隔符（`; `，只有标点、符号和空格）。表和代码列的是同一组说法和分隔符：代码里多了一句表里没有的、
 *   表里的说法和代码对不上、表里有一句代码根本说不出来的，都不过。
 *
 * 代码这一边从 `run` 函数体的语法树上读（不跑它）：每个字符串和模板字面量都是一句话，只有 `===`/`!==` 的操作数
 * （`issue.code === "unrecognized_keys"`、`typeof x !== "string"`）和 `.join(…)` 的参数不算；`${…}` 是一个占位，除非它
 * 在几个字符串字面量里挑一个（`${given ? "must be a string" : "is missing"}` 每个分支算一句）。`.map(…)` 的结果
 * （或用它初始化的 `const`）上的 `.join("…")` 是分隔符；别的 join（`issue.path.join(".")`）在占位里面，不算。
 *
 * `run` 把一部分活交给这一课自己的顶层函数（防线 `parseArguments`、`expectText`），所以这些函数体也读，只往下读一层：
 * `run` 在 `${…}` 之外调用的每个顶层函数（占位里的调用只是填那个洞，比如 `describeError`）。`run` 给某个参数传了
 * 字符串或模板，这个参数就代表传进来的东西（`expectText(output, \`tool "${call.name}"\`)` 让 `${who}` 变成 `tool "<…>"`）。
 * 这种函数抛出的话（`throw new Error(\`…\`)`），要是 `run` 在 `try` 里调用它，就经那个 try 的 `catch` 交给调用方：
 * 前面加上 catch 返回的模板的开头（`error: `），和学习者看到的一样。
 */
import ts from "typescript";
import { parseReadme, walk } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

/** 比较说法时，每个 `<…>` 和 `${…}` 都换成它。 */
const HOLE = "<…>";
/** 表里列的是哪个方法的说法：它在 API 报告里的键。 */
export const RUN_KEY = "ToolRegistry#run";

export interface Wordings {
  wordings: string[];
  separators: string[];
}

/** 一课代码里 `class ToolRegistry { run(…) { … } }` 的函数体，有的话。 */
function runBody(code: string): ts.Block | undefined {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const statement of sf.statements) {
    if (!ts.isClassDeclaration(statement) || statement.name?.text !== "ToolRegistry") continue;
    for (const member of statement.members) {
      if (ts.isMethodDeclaration(member) && ts.isIdentifier(member.name) && member.name.text === "run") return member.body;
    }
  }
  return undefined;
}

const isStringy = (n: ts.Node): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);
const isEquality = (n: ts.Node): boolean =>
  ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(n.operatorToken.kind);
const isJoinCall = (n: ts.Node): n is ts.CallExpression => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "join";
const isMapCall = (n: ts.Node): boolean => ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "map";

/** 被调用的帮手函数的参数代表什么：调用方给它传的那几段文字。 */
type Env = ReadonlyMap<string, string[]>;

/** 一个 `${…}` 能代表的几个字面量（`cond ? "a" : "b"`，或 env 里绑定了的参数）；是个占位时回 undefined。 */
function choices(expr: ts.Expression, env: Env): string[] | undefined {
  const e = ts.isParenthesizedExpression(expr) ? expr.expression : expr;
  if (isStringy(e)) return [e.text];
  if (ts.isIdentifier(e) && env.has(e.text)) return env.get(e.text);
  if (ts.isTemplateExpression(e)) return expand(e, env);
  if (ts.isConditionalExpression(e)) {
    const a = choices(e.whenTrue, env);
    const b = choices(e.whenFalse, env);
    return a && b ? [...a, ...b] : undefined;
  }
  return undefined;
}

/** 一个模板能拼出的每一段文字，占位的 `${…}` 写成 HOLE。 */
function expand(template: ts.TemplateExpression, env: Env): string[] {
  let texts = [template.head.text];
  for (const span of template.templateSpans) {
    const options = choices(span.expression, env) ?? [HOLE];
    texts = texts.flatMap((t) => options.map((o) => t + o + span.literal.text));
  }
  return texts;
}

/** 从一个函数体里读出说法和分隔符，放进 out；它在占位之外的每个调用都交给 onCall。 */
function readBody(body: ts.Node, env: Env, out: Wordings, onCall: (call: ts.CallExpression) => void, throwPrefix = "", passed: (n: ts.Node) => boolean = () => false): void {
  // `const problems = x.map(…)`：join `problems` 就是把几句话连起来
  const mapped = new Set<string>();
  const findMapped = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer !== undefined && isMapCall(n.initializer)) mapped.add(n.name.text);
    n.forEachChild(findMapped);
  };
  findMapped(body);
  const add = (set: string[], value: string): void => void (set.includes(value) || set.push(value));
  const separatorOf = (call: ts.CallExpression): void => {
    const receiver = (call.expression as ts.PropertyAccessExpression).expression;
    const joinsWordings = isMapCall(receiver) || (ts.isIdentifier(receiver) && mapped.has(receiver.text));
    const [arg] = call.arguments;
    if (joinsWordings && arg !== undefined && isStringy(arg)) add(out.separators, arg.text);
  };
  // 占位里只有分隔符算数（占位本身是模板里的一个洞），另外占位里回调返回的东西也算
  // （`${keys.map((k) => `unexpected "${k}"`).join(", ")}`：每个元素是一句话）
  const inHole = (n: ts.Node): void => {
    if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return visit(n.body);
    if (isJoinCall(n)) separatorOf(n);
    n.forEachChild(inHole);
  };
  const thrown = (n: ts.Node): boolean => ts.isNewExpression(n.parent) && ts.isThrowStatement(n.parent.parent);
  function visit(n: ts.Node): void {
    // run 传给帮手函数的参数本身不是一句话：它填的是那个参数在帮手里留下的洞
    if (passed(n)) return;
    if (ts.isTemplateExpression(n)) {
      for (const t of expand(n, env)) add(out.wordings, (thrown(n) ? throwPrefix : "") + t);
      for (const span of n.templateSpans) inHole(span.expression);
      return;
    }
    if (isStringy(n)) {
      const parent = n.parent;
      if (isEquality(parent)) return;
      if (isJoinCall(parent) && parent.arguments.includes(n as ts.Expression)) return;
      add(out.wordings, (thrown(n) ? throwPrefix : "") + n.text);
      return;
    }
    if (isJoinCall(n)) separatorOf(n);
    if (ts.isCallExpression(n)) onCall(n);
    n.forEachChild(visit);
  }
  visit(body);
}

/** try 的 catch 返回的模板的开头（`return \`error: ${…}\``），没有就是 ""。 */
function catchPrefix(tryStatement: ts.TryStatement): string {
  let prefix = "";
  const look = (n: ts.Node): void => {
    if (prefix === "" && ts.isReturnStatement(n) && n.expression !== undefined && ts.isTemplateExpression(n.expression)) prefix = n.expression.head.text;
    n.forEachChild(look);
  };
  if (tryStatement.catchClause !== undefined) look(tryStatement.catchClause.block);
  return prefix;
}

/** `ToolRegistry.run` 能说的话和用的分隔符，从语法树上读出来；没有 `run` 时回 undefined。 */
export function runWordings(code: string): Wordings | undefined {
  const body = runBody(code);
  if (body === undefined) return undefined;
  const sf = body.getSourceFile();
  const helpers = new Map<string, ts.FunctionDeclaration>();
  for (const statement of sf.statements) if (ts.isFunctionDeclaration(statement) && statement.name !== undefined && statement.body !== undefined) helpers.set(statement.name.text, statement);
  const out: Wordings = { wordings: [], separators: [] };
  const calls: ts.CallExpression[] = [];
  const isHelperCall = (n: ts.Node): n is ts.CallExpression => ts.isCallExpression(n) && ts.isIdentifier(n.expression) && helpers.has(n.expression.text);
  const passedToHelper = (n: ts.Node): boolean => (ts.isTemplateExpression(n) || isStringy(n)) && isHelperCall(n.parent) && n.parent.arguments.includes(n as ts.Expression);
  readBody(body, new Map(), out, (call) => void calls.push(call), "", passedToHelper);
  for (const call of calls) {
    const helper = ts.isIdentifier(call.expression) ? helpers.get(call.expression.text) : undefined;
    if (helper?.body === undefined) continue;
    const env = new Map<string, string[]>();
    for (const [i, param] of helper.parameters.entries()) {
      const arg = call.arguments[i];
      const passed = arg === undefined ? undefined : choices(arg, new Map());
      if (ts.isIdentifier(param.name) && passed !== undefined) env.set(param.name.text, passed);
    }
    let inTry: ts.TryStatement | undefined;
    for (let n: ts.Node = call; n !== body; n = n.parent) if (ts.isBlock(n) && ts.isTryStatement(n.parent) && n.parent.tryBlock === n) inTry = n.parent;
    readBody(helper.body, env, out, () => {}, inTry === undefined ? "" : catchPrefix(inTry));
  }
  return out;
}

const SEPARATOR = /^[\p{P}\p{S}\s]+$/u;

/** README 里那张表（表头格写着「报错」）：每行第一格的行内代码，分成说法（`<…>` 换成 HOLE）和分隔符。 */
export function tableWordings(readme: string): (Wordings & { section: string; problems: string[] }) | undefined {
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    let found: (Wordings & { section: string; problems: string[] }) | undefined;
    walk(section.nodes, (n) => {
      if (found !== undefined || n.type !== "table") return;
      const [header, ...rows] = n.children;
      const firstHeader = header?.children[0];
      const headerText = firstHeader ? firstHeader.children.map((c) => ("value" in c ? c.value : "")).join("") : "";
      if (!headerText.includes("报错")) return;
      found = { section: section.name, wordings: [], separators: [], problems: [] };
      for (const row of rows) {
        const spans = (row.children[0]?.children ?? []).filter((c) => c.type === "inlineCode");
        if (spans.length !== 1) {
          found.problems.push(`the first cell of every row holds exactly one \`…\` (line ${row.position?.start.line ?? 0})`);
          continue;
        }
        const value = spans[0].value;
        if (SEPARATOR.test(value)) found.separators.push(value);
        else found.wordings.push(value.replace(/<[^<>]*>/g, HOLE));
      }
    });
    if (found !== undefined) return found;
  }
  return undefined;
}

export function checkErrorTable(lessonId: string, readme: string, ctx: DocsContext): string[] {
  // 只查引入 run 的那一课（它的报告有这个键，前一课的没有）
  if (ctx.report === undefined || !(RUN_KEY in ctx.report) || (ctx.prevReport !== undefined && RUN_KEY in ctx.prevReport)) return [];
  const say = (where: string, what: string): string => `${lessonId} README ${where}: ${what}`;
  const code = runWordings(ctx.code);
  if (code === undefined) return [say("报错一览", `the API report has ${RUN_KEY} but ${ctx.lessonDir}/code.ts has no class ToolRegistry with a run method`)];
  const table = tableWordings(readme);
  if (table === undefined) return [say("报错一览", "no table whose first header cell says 「报错」 lists the wordings ToolRegistry.run can return")];
  const out = table.problems.map((p) => say(table.section, p));
  const show = (w: string): string => `\`${w}\``;
  for (const w of code.wordings) if (!table.wordings.includes(w)) out.push(say(table.section, `ToolRegistry.run can return ${show(w)}, but the 报错 table has no row for it`));
  for (const w of table.wordings) if (!code.wordings.includes(w)) out.push(say(table.section, `the 报错 table lists ${show(w)}, but ToolRegistry.run has no such wording`));
  for (const s of code.separators) if (!table.separators.includes(s)) out.push(say(table.section, `ToolRegistry.run joins wordings with ${JSON.stringify(s)}, but the 报错 table has no row for that separator`));
  for (const s of table.separators) if (!code.separators.includes(s)) out.push(say(table.section, `the 报错 table lists the separator ${JSON.stringify(s)}, but ToolRegistry.run joins with no such separator`));
  return out;
}
