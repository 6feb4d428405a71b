// 练习时的提示：讲解不带答案。一处空白（makePractice 的一个 stub）有四级提示，都取自这一课自己：
//   1 README 里讲它的那一小节的正文（段落、列表、表格；代码块不要）；
//   2 函数的文档注释和签名，函数体是 …；
//   3 骨架（D43）：函数体的注释和控制结构原样，表达式一律换成 …；
//   4 答案：挖掉的原文。
// 第 2–4 级是同一段代码逐级露出来：后一级露出的字是前一级的超集（tests/practice/hints.test.ts 对每课每处空白证明）。
// npm run hint（scripts/practice/hint.ts）在终端里打印，网页阅读器的练习视图（site/lib/practice.ts）折叠着放。
import type { Nodes, RootContent } from "mdast";
import { gfmToMarkdown } from "mdast-util-gfm";
import { toMarkdown } from "mdast-util-to-markdown";
import ts from "typescript";
import { subsections } from "./readme.ts";
import { type FunctionLike, type Stub, isFunctionLike } from "./stub.ts";

export const HINT_LEVELS = [1, 2, 3, 4] as const;
export type HintLevel = (typeof HINT_LEVELS)[number];

/** 每一级叫什么：命令行的标题、网页上的小标题都用它。 */
export const LEVEL_NAMES: Record<HintLevel, string> = {
  1: "README 的讲解",
  2: "签名和文档注释",
  3: "骨架：注释和控制结构，表达式换成 …",
  4: "答案：挖掉的原文",
};

/** 省掉的代码写成这个字。 */
export const ELIDED = "…";

// ── 现在练的是哪一处 ─────────────────────────────────────
const throwOf = (stub: Stub): string => `throw new Error(${JSON.stringify(stub.message)});`;

/**
 * 练习文件里还没写的空白（还留着那句 `throw new Error("TODO sNN: …")` 的），按 stubs 的顺序。
 * 几处空白的 throw 一字不差时（同一个函数里挖了几段），数还剩几句，算最后那几处没写（学习者多半从上往下写）。
 * practice 为 undefined（还没有练习文件）时，每一处都没写。
 */
export function openStubs(stubs: readonly Stub[], practice: string | undefined): Stub[] {
  if (practice === undefined) return [...stubs];
  const left = new Map<string, number>();
  for (const s of stubs) if (!left.has(s.message)) left.set(s.message, practice.split(throwOf(s)).length - 1);
  const total = new Map<string, number>();
  for (const s of stubs) total.set(s.message, (total.get(s.message) ?? 0) + 1);
  const seen = new Map<string, number>();
  return stubs.filter((s) => {
    const k = (seen.get(s.message) ?? 0) + 1;
    seen.set(s.message, k);
    return k > (total.get(s.message) ?? 0) - (left.get(s.message) ?? 0);
  });
}

/**
 * 现在练的那一处：stubs 里第一处还没写的。stubs 的顺序就是练习的顺序——默认是 makePractice 列的顺序，
 * 要按别的顺序（比如按阶段）练，把排好的 stubs 传进来。全写完了是 undefined；没有练习文件是第一处。
 */
export function currentStub(stubs: readonly Stub[], practice: string | undefined): Stub | undefined {
  return openStubs(stubs, practice)[0];
}

// ── 第 1 级：README 的正文 ───────────────────────────────
/** 去掉代码块和 HTML（列表、引用里的也去掉），只留正文。 */
function proseOnly(nodes: readonly RootContent[]): RootContent[] {
  const keep = (n: Nodes): boolean => n.type !== "code" && n.type !== "html";
  const strip = <T extends Nodes>(n: T): T => ("children" in n ? { ...n, children: (n.children as Nodes[]).filter(keep).map(strip) } : n);
  return nodes.filter(keep).map(strip);
}

/** README「工作原理」（或 h2 那一节）里叫 section 的那一小节的正文（Markdown，没有代码块）；找不到这一小节是 undefined。 */
export function proseHint(readme: string, section: string, h2 = "工作原理"): string | undefined {
  const part = subsections(readme, h2).find((p) => p.title === section);
  if (part === undefined) return undefined;
  const prose = proseOnly(part.nodes);
  return toMarkdown({ type: "root", children: prose }, { extensions: [gfmToMarkdown({ tablePipeAlign: false })] }).trimEnd();
}

// ── 第 2–4 级：同一段代码逐级露出来 ──────────────────────
/** 找到的函数：它本身、带注释的那个声明（变量声明的话是整条 const）、所在的类。 */
type Found = { fn: FunctionLike; decl: ts.Node; cls?: ts.ClassDeclaration };

const memberName = (m: ts.ClassElement): string => (m.name && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name)) ? m.name.text : "constructor");

/** stub.name 的写法（`runOneTurn`、`ToolRegistry.run`、`runEventedToolLoop › finish`）在课的代码里找函数。 */
export function findFunction(sf: ts.SourceFile, name: string): Found | undefined {
  const [outer, ...inner] = name.split(" › ");
  const [head, member] = outer.split(".");
  let found: Found | undefined;
  for (const st of sf.statements) {
    if (member === undefined && ts.isFunctionDeclaration(st) && st.name?.text === head) found = { fn: st, decl: st };
    else if (member === undefined && ts.isVariableStatement(st)) {
      const d = st.declarationList.declarations.find((v) => ts.isIdentifier(v.name) && v.name.text === head && v.initializer !== undefined && isFunctionLike(v.initializer));
      if (d?.initializer !== undefined && isFunctionLike(d.initializer)) found = { fn: d.initializer, decl: st };
    } else if (member !== undefined && ts.isClassDeclaration(st) && st.name?.text === head) {
      const m = st.members.find((x) => memberName(x) === member);
      if (m !== undefined && isFunctionLike(m)) found = { fn: m, decl: m, cls: st };
      else if (m !== undefined && ts.isPropertyDeclaration(m) && m.initializer !== undefined && isFunctionLike(m.initializer)) found = { fn: m.initializer, decl: m, cls: st };
    }
    if (found !== undefined) break;
  }
  for (const n of inner) {
    if (found === undefined) return undefined;
    found = innerFunction(found, n);
  }
  return found;
}

/** 函数体里叫 name 的小函数（`const finish = (…) => { … }`）。 */
function innerFunction(outer: Found, name: string): Found | undefined {
  let hit: Found | undefined;
  const visit = (n: ts.Node): void => {
    if (hit !== undefined) return;
    if (ts.isVariableStatement(n)) {
      for (const d of n.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer !== undefined && isFunctionLike(d.initializer)) {
          hit = { fn: d.initializer, decl: n };
          return;
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  if (outer.fn.body !== undefined) visit(outer.fn.body);
  return hit;
}

/** 紧贴着声明的注释（文档注释和 // 注释；隔了空行的、小节横幅 `// ── … ──` 不算）从哪里开始。 */
function commentStart(text: string, decl: ts.Node, sf: ts.SourceFile): number {
  const ranges = ts.getLeadingCommentRanges(text, decl.getFullStart()) ?? [];
  let start = decl.getStart(sf);
  for (const r of [...ranges].reverse()) {
    if (/\n[ \t]*\n/.test(text.slice(r.end, start)) || text.startsWith("// ──", r.pos)) break;
    start = r.pos;
  }
  return start;
}

/** 去掉共同的缩进，去掉首尾的空行。 */
export function dedent(code: string): string {
  const lines = code.replace(/\r\n/g, "\n").split("\n");
  while (lines.length > 0 && lines[0].trim() === "") lines.shift();
  while (lines.length > 0 && (lines.at(-1) ?? "").trim() === "") lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
}

/** 每一行（空行除外）前面加上 pad。 */
export const indentBy = (code: string, pad: string): string =>
  code
    .split("\n")
    .map((l) => (l === "" ? l : pad + l))
    .join("\n");

/**
 * D43 第 3 级的骨架：挖掉的那几条语句，注释、语句的关键字和结构原样，表达式一律换成 …。
 * 留下的：`if (…) {`、`for await (…) {`、`try`/`catch (error)`/`finally`、`switch (…)` 和 `case …:`、`return …;`、`throw …;`、
 * `break;`、声明的名字和类型（`const calls: ToolCall[] = …;`）、赋给谁（`agent.state.turn = …;`）、`await …;`、`yield …;`，
 * 以及函数里小函数的签名（小函数的体同样只留骨架）。换掉的：条件、循环头、调用、初始值、返回值——也就是答案本身。
 * 只看语法树，同一段代码永远得到同一个骨架。
 */
export function skeleton(code: string): string {
  // 包在一个 async 生成器函数里解析：return、yield、await 都合法
  const prefix = "async function* __hint__() {\n";
  const src = `${prefix}${code}\n}`;
  const sf = ts.createSourceFile("hint.ts", src, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const walker = new SkeletonWalker(sf);
  const outer = sf.statements[0];
  if (outer !== undefined && ts.isFunctionDeclaration(outer)) walker.fn(outer);
  let out = "";
  let pos = prefix.length;
  for (const s of walker.spans.sort((a, b) => a.start - b.start)) {
    if (s.start < pos) continue;
    out += src.slice(pos, s.start) + ELIDED;
    pos = s.end;
  }
  out += src.slice(pos, prefix.length + code.length);
  return out;
}

/** 走一遍语法树，记下骨架里要换成 … 的区间（spans）：语句的结构留着，表达式换掉。 */
class SkeletonWalker {
  readonly spans: { start: number; end: number }[] = [];

  constructor(private readonly sf: ts.SourceFile) {}

  private elide(n: ts.Node | undefined): void {
    if (n !== undefined) this.spans.push({ start: n.getStart(this.sf), end: n.getEnd() });
  }

  /** 括号里的全部（for 的头）。 */
  private elideParens(st: ts.Node): void {
    const kids = st.getChildren(this.sf);
    const open = kids.findIndex((k) => k.kind === ts.SyntaxKind.OpenParenToken);
    const close = kids.findIndex((k) => k.kind === ts.SyntaxKind.CloseParenToken);
    if (open >= 0 && close > open + 1) this.spans.push({ start: kids[open + 1].getStart(this.sf), end: kids[close - 1].getEnd() });
  }

  fn(f: FunctionLike): void {
    if (f.body === undefined) return;
    if (ts.isBlock(f.body)) f.body.statements.forEach((st) => this.statement(st));
    else this.elide(f.body);
  }

  /** 一条表达式语句：`await …;`、`yield …;`、赋给谁（`agent.state.turn = …;`）留着，别的整条换掉。 */
  private expression(e: ts.Expression): void {
    const isAccess = (x: ts.Expression): boolean =>
      ts.isIdentifier(x) || x.kind === ts.SyntaxKind.ThisKeyword || (ts.isPropertyAccessExpression(x) && isAccess(x.expression));
    if (ts.isAwaitExpression(e)) this.elide(e.expression);
    else if (ts.isYieldExpression(e)) this.elide(e.expression);
    else if (ts.isBinaryExpression(e) && e.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && e.operatorToken.kind <= ts.SyntaxKind.LastAssignment && isAccess(e.left)) this.elide(e.right);
    else this.elide(e);
  }

  private statement(st: ts.Statement): void {
    const inner = (s: ts.Statement | undefined): void => {
      if (s !== undefined) this.statement(s);
    };
    if (ts.isBlock(st)) st.statements.forEach(inner);
    else if (ts.isIfStatement(st)) {
      this.elide(st.expression);
      inner(st.thenStatement);
      inner(st.elseStatement);
    } else if (ts.isForStatement(st) || ts.isForOfStatement(st) || ts.isForInStatement(st)) {
      this.elideParens(st);
      inner(st.statement);
    } else if (ts.isWhileStatement(st) || ts.isDoStatement(st)) {
      this.elide(st.expression);
      inner(st.statement);
    } else if (ts.isTryStatement(st)) {
      inner(st.tryBlock);
      inner(st.catchClause?.block);
      inner(st.finallyBlock);
    } else if (ts.isSwitchStatement(st)) {
      this.elide(st.expression);
      for (const c of st.caseBlock.clauses) {
        if (ts.isCaseClause(c)) this.elide(c.expression);
        c.statements.forEach(inner);
      }
    } else if (ts.isLabeledStatement(st)) inner(st.statement);
    else if (ts.isReturnStatement(st) || ts.isThrowStatement(st)) this.elide(st.expression);
    else if (ts.isExpressionStatement(st)) this.expression(st.expression);
    else if (ts.isFunctionDeclaration(st)) this.fn(st);
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (d.initializer !== undefined && isFunctionLike(d.initializer)) this.fn(d.initializer);
        else this.elide(d.initializer);
      }
    }
  }
}

/** 一处空白的第 2–4 级用到的：函数的注释和签名、挖掉的代码、它在函数体里的位置。 */
export type HintSource = {
  /** 函数的文档注释和签名，到函数体的 `{` 为止（类的方法前面加上 `class X {`）；缩进已去掉。 */
  head: string;
  /** 函数体结尾（`}`，类的方法再加一行类的 `}`）。 */
  tail: string;
  /** 只挖了函数体的一部分（part）：前后还有学习者看得到的代码，用 … 表示。 */
  partial: boolean;
};

// 一课的代码解析一次：同一课的每处空白、每一级都要它
let lastParsed: ts.SourceFile | undefined;
function parse(code: string): ts.SourceFile {
  if (lastParsed?.text !== code) lastParsed = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return lastParsed;
}

/** 在课的代码里找 stub 所在的函数，取出它的注释和签名。找不到函数是 undefined。 */
export function hintSource(lessonCode: string, stub: Pick<Stub, "name" | "kind">): HintSource | undefined {
  const sf = parse(lessonCode);
  const found = findFunction(sf, stub.name);
  if (found?.fn.body === undefined) return undefined;
  const body = found.fn.body;
  const lineStart = (pos: number): number => lessonCode.lastIndexOf("\n", pos - 1) + 1;
  const start = lineStart(commentStart(lessonCode, found.decl, sf));
  let head = lessonCode.slice(start, body.getStart(sf) + (ts.isBlock(body) ? 1 : 0));
  let tail = ts.isBlock(body) ? `${/^[ \t]*/.exec(lessonCode.slice(start))?.[0] ?? ""}}` : "";
  if (found.cls !== undefined) {
    const cls = found.cls;
    const classHead = lessonCode.slice(lineStart(cls.getStart(sf)), cls.members.pos).trimEnd();
    head = `${classHead}\n${head}`;
    tail = `${tail}\n}`;
  }
  const lines = dedent(`${head}\n${tail}`).split("\n");
  const tailLines = tail.split("\n").length;
  return { head: lines.slice(0, -tailLines).join("\n"), tail: lines.slice(-tailLines).join("\n"), partial: stub.kind === "part" };
}

/**
 * 第 2–4 级：同一段代码，函数体分别是 …、骨架、原文。
 * signature: false 时只要函数体那几行（网页上第 3 级紧挨着第 2 级，注释和签名不必再印一遍）。
 */
export function codeHint(src: HintSource, stub: Pick<Stub, "code">, level: 2 | 3 | 4, { signature = true }: { signature?: boolean } = {}): string {
  const inner = level === 2 ? ELIDED : dedent(level === 3 ? skeleton(stub.code) : stub.code);
  const around = src.partial && level > 2 ? [ELIDED, inner, ELIDED] : [inner];
  if (!signature) return around.join("\n");
  const pad = `${/^[ \t]*/.exec(src.tail.split("\n")[0])?.[0] ?? ""}  `;
  return [src.head, ...around.map((b) => indentBy(b, pad)), src.tail].join("\n");
}

/** 命令行上的 --part 名字：带空格的（`runEventedToolLoop › finish`）加引号。 */
export const partArg = (name: string): string => (/\s/.test(name) ? JSON.stringify(name) : name);

/** 一课里给提示要的原料：这一课的代码和 README。 */
export type HintLesson = { code: string; readme: string };

/** 一处空白第 level 级的提示正文（不带标题）。 */
export function hintBody(lesson: HintLesson, stub: Stub, level: HintLevel): string {
  if (level === 1) return proseHint(lesson.readme, stub.section) ?? `（README 里没有叫「${stub.section}」的小节）`;
  const src = hintSource(lesson.code, stub);
  if (src === undefined) throw new Error(`${stub.name}: not found in the lesson's code.ts`);
  return codeHint(src, stub, level);
}
