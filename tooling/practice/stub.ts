// 练习文件怎么来：拿这一课自己的 code.ts，把这一课新加或改过的函数体换成一句 `throw new Error("TODO sNN: …")`。
// 哪些地方算「新加或改过」，用的是 npm run diff 同一份逐行比对（tooling/linediff.ts），落到语法树上：
// 全新的函数、方法，整个函数体换掉；前面几课就有、这一课改了过半的行的函数，整个重写；只改了几处的，
// 只换改动所在的那几条语句（if 的条件没改就留着条件，只换后面那一句）。
// 类型、签名、文档注释、前面几课的代码、假 provider 和演示 main 原样保留。生成的文件必须通过类型检查，
// 而且 API 报告和这一课一模一样——做不到就报错，不交出一份半对的练习。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { buildFileReport } from "../api/extract.ts";
import { diffLines } from "../linediff.ts";
import { sectionFor } from "./readme.ts";
import { LESSONS, ROOT, lessonDir, lessonNumber } from "../course.ts";

/** 练习文件里的一处空白：学习者要写的地方。 */
export type Stub = {
  /** 函数名，方法写成 `ToolRegistry.run`，函数里的小函数写成 `runEventedToolLoop › finish`。 */
  name: string;
  /**
   * body：整个函数体是这一课新写的；rewrite：前面就有的函数，这一课改得整个函数体都得重写；
   * part：前面就有的函数，只挖这一课改了的那几条语句。
   */
  kind: "body" | "rewrite" | "part";
  /** 在练习文件里的行号（从 1 起），throw 那一行。 */
  line: number;
  /** 讲它的 README 小节，如 `5. 循环本身：runEventedToolLoop`。 */
  section: string;
  /** throw 出的那句话。 */
  message: string;
  /** 挖掉的原文（整行挖的带缩进；就地挖的是那一条语句）：npm run hint 的最后一级就是它。 */
  code: string;
};

export type Practice = { id: string; dir: string; text: string; stubs: Stub[] };

/** 机制到这个横幅为止：防线一节、假 provider、演示数据、IO 边缘和 main 都原样给出，不挖空（D52）。 */
const DEMO_BANNER = /^\/\/ ── (?:防线|假 provider)/m;

const readLesson = (id: string): string => readFileSync(join(ROOT, lessonDir(id), "code.ts"), "utf8");

// ── 改动落在哪些字符上 ───────────────────────────────────
type Span = { start: number; end: number };

/**
 * 这一课相对上一课改动的字符区间。一行换一行（或几行换同样多行）时，只取两行去掉相同头尾后的中间部分，
 * 这样 `return assistant;` 改成 `return finish(assistant);` 只算改了 `finish(…)`，不算整条 if。
 */
export function changedSpans(prev: string, cur: string): Span[] {
  const starts: number[] = [0];
  for (let i = 0; i < cur.length; i++) if (cur[i] === "\n") starts.push(i + 1);
  const lineSpan = (line: number): Span => ({ start: starts[line - 1], end: (starts[line] ?? cur.length + 1) - 1 });
  const spans: Span[] = [];
  const diff = diffLines(prev, cur);
  for (let i = 0; i < diff.length; ) {
    if (diff[i].kind === "same") {
      i++;
      continue;
    }
    const adds: { text: string; line: number }[] = [];
    const dels: string[] = [];
    for (; i < diff.length && diff[i].kind !== "same"; i++) {
      if (diff[i].kind === "add") adds.push(diff[i]);
      else dels.push(diff[i].text);
    }
    adds.forEach((add, k) => {
      const whole = lineSpan(add.line);
      const old = adds.length === dels.length ? dels[k] : undefined;
      if (old === undefined) return void spans.push(whole);
      let head = 0;
      while (head < add.text.length && head < old.length && add.text[head] === old[head]) head++;
      let tail = 0;
      while (tail < add.text.length - head && tail < old.length - head && add.text.at(-1 - tail) === old.at(-1 - tail)) tail++;
      spans.push({ start: whole.start + head, end: Math.max(whole.start + head, whole.end - tail) });
    });
  }
  return spans;
}

// ── 语法树上的挖空 ───────────────────────────────────────
/** 一处挖空：换掉 [start, end)；removed 是被换掉的代码行（去掉首尾空白），用来找 README 里展示它的小节。 */
type Edit = { start: number; end: number; name: string; kind: Stub["kind"]; removed: string[]; indent: string; inline: boolean };

/** 有函数体、能挖空的函数：声明、方法、构造函数、存取器、箭头函数、函数表达式（提示 hints.ts 找函数也按它）。 */
export type FunctionLike = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ConstructorDeclaration | ts.AccessorDeclaration | ts.ArrowFunction | ts.FunctionExpression;

export const isFunctionLike = (n: ts.Node): n is FunctionLike =>
  ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isAccessor(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n);

/** 复合语句里嵌着的语句：if 的两个分支、循环体、try/catch/finally 的块。 */
function slotsOf(st: ts.Statement): ts.Statement[] {
  if (ts.isIfStatement(st)) return st.elseStatement === undefined ? [st.thenStatement] : [st.thenStatement, st.elseStatement];
  if (ts.isForStatement(st) || ts.isForOfStatement(st) || ts.isForInStatement(st) || ts.isWhileStatement(st) || ts.isDoStatement(st)) return [st.statement];
  if (ts.isTryStatement(st)) return [st.tryBlock, st.catchClause?.block, st.finallyBlock].filter((b): b is ts.Block => b !== undefined);
  if (ts.isBlock(st)) return [st];
  return [];
}

/** `agent`、`this.registry`、`agent.state`：只是取值，没有调用。 */
const isPlainAccess = (e: ts.Expression): boolean =>
  ts.isIdentifier(e) || e.kind === ts.SyntaxKind.ThisKeyword || (ts.isPropertyAccessExpression(e) && isPlainAccess(e.expression));

class Planner {
  readonly edits: Edit[] = [];
  /** 改动落在代码上的部分（注释、空白不算），按位置排好。 */
  private readonly changed: Span[] = [];

  constructor(
    private readonly sf: ts.SourceFile,
    spans: readonly Span[],
    /** 这些函数整个挖空（类型检查不过时的退路）。 */
    private readonly wholeBodies: ReadonlySet<string>,
  ) {
    const visit = (n: ts.Node): void => {
      if (n.kind >= ts.SyntaxKind.FirstToken && n.kind <= ts.SyntaxKind.LastToken) {
        const t = { start: n.getStart(sf), end: n.getEnd() };
        for (const s of spans) if (s.start < t.end && t.start < s.end) this.changed.push({ start: Math.max(s.start, t.start), end: Math.min(s.end, t.end) });
      } else for (const c of n.getChildren(sf)) if (!ts.isJSDoc(c)) visit(c);
    };
    visit(sf);
  }

  /** 这段文字里有代码改动（不只是注释、空白）。 */
  private touched(start: number, end: number): boolean {
    return this.changed.some((c) => c.start < end && start < c.end);
  }

  private touchedNode(n: ts.Node): boolean {
    return this.touched(n.getStart(this.sf), n.getEnd());
  }

  /** 函数体里有几行代码、其中几行是这一课改的或写的（空行、注释、单独的右花括号不算）。 */
  private changedLines(body: ts.Block): { lines: number; changed: number } {
    const text = this.sf.text;
    let lines = 0;
    let changed = 0;
    for (let pos = text.indexOf("\n", body.getStart(this.sf)) + 1; pos < body.getEnd() - 1; pos = text.indexOf("\n", pos) + 1) {
      const end = text.indexOf("\n", pos);
      const code = text.slice(pos, end).trim();
      if (code === "" || code === "}" || /^(\/\/|\/?\*)/.test(code)) continue;
      lines++;
      if (this.touched(pos, end)) changed++;
    }
    return { lines, changed };
  }

  topLevel(statements: readonly ts.Statement[], limit: number): void {
    for (const st of statements) {
      if (st.getStart(this.sf) >= limit) break;
      if (ts.isFunctionDeclaration(st) && st.name) this.fn(st, st.name.text);
      else if (ts.isClassDeclaration(st) && st.name) {
        for (const m of st.members) {
          const member = m.name && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name)) ? m.name.text : "constructor";
          if (isFunctionLike(m)) this.fn(m, `${st.name.text}.${member}`);
          else if (ts.isPropertyDeclaration(m) && m.initializer && isFunctionLike(m.initializer)) this.fn(m.initializer, `${st.name.text}.${member}`);
        }
      } else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.initializer && isFunctionLike(d.initializer)) this.fn(d.initializer, d.name.text);
        }
      }
    }
  }

  private fn(node: FunctionLike, name: string): void {
    const body = node.body;
    if (body === undefined || !ts.isBlock(body) || !this.touchedNode(body)) return;
    const { lines, changed } = this.changedLines(body);
    if (lines === 0) return;
    // 只把参数交给 super 的构造函数和空的一样留着：派生类的构造函数少了 super 就过不了类型检查，而那一句也不是机制
    if (ts.isConstructorDeclaration(node) && body.statements.every((st) => ts.isExpressionStatement(st) && ts.isCallExpression(st.expression) && st.expression.expression.kind === ts.SyntaxKind.SuperKeyword)) return;
    if (changed === lines || this.wholeBodies.has(name)) this.replace(body.statements, body, name, "body");
    // 过半的行都改了：与其挖得七零八落，不如整个重写
    else if (changed * 2 > lines) this.replace(body.statements, body, name, "part");
    else this.block(body, name);
  }

  /** 只挖改了的语句；挖掉的语句声明了后面还要用的名字时，一直挖到块尾，免得后面的代码找不到名字。 */
  private block(block: ts.Block, name: string): void {
    const sts = block.statements;
    for (let i = 0; i < sts.length; i++) {
      const st = sts[i];
      if (!this.touchedNode(st)) continue;
      if (ts.isVariableStatement(st)) {
        const decls = st.declarationList.declarations;
        if (decls.every((d) => d.initializer !== undefined && isFunctionLike(d.initializer) && ts.isIdentifier(d.name))) {
          for (const d of decls) if (d.initializer !== undefined && isFunctionLike(d.initializer)) this.fn(d.initializer, `${name} › ${d.name.getText(this.sf)}`);
          continue;
        }
        // 只是从现成的对象里取几个名字（`const { state, runtime } = agent;`）：不是机制，留着
        if (decls.every((d) => d.initializer === undefined || isPlainAccess(d.initializer))) continue;
        this.replace(sts.slice(i), block, name, "part");
        return;
      }
      if (this.compound(st, name)) continue;
      // `return oneTurnAtATime(state, async () => { … })`：只改了里面那个函数的身子，就往里挖，外面的包装留着
      const inner = this.wrappedBody(st);
      if (inner !== undefined) {
        this.block(inner, name);
        continue;
      }
      let j = i;
      while (j + 1 < sts.length && this.touchedNode(sts[j + 1]) && !ts.isVariableStatement(sts[j + 1]) && slotsOf(sts[j + 1]).length === 0) j++;
      this.replace(sts.slice(i, j + 1), block, name, "part");
      i = j;
    }
  }

  /**
   * 复合语句（if、循环、try）只改了里面的语句、没改条件时，往里挖，条件留给学习者看；
   * 改到了条件本身就返回 false，由调用方整条挖掉。
   */
  private compound(st: ts.Statement, name: string): boolean {
    const slots = slotsOf(st);
    if (slots.length === 0) return false;
    let pos = st.getStart(this.sf);
    for (const slot of slots) {
      if (this.touched(pos, slot.getStart(this.sf))) return false;
      pos = slot.getEnd();
    }
    if (this.touched(pos, st.getEnd())) return false;
    for (const slot of slots) {
      if (!this.touchedNode(slot)) continue;
      if (ts.isBlock(slot)) this.block(slot, name);
      else if (!this.compound(slot, name)) this.inline(slot, name);
    }
    return true;
  }

  /**
   * 一条 return（或表达式语句）只是把一个函数交给别人调用——`return oneTurnAtATime(state, async () => { … })`——而这一课只改了
   * 那个函数的身子：交回那个身子，让调用方往里挖。改到了外面（调的是谁、别的参数）就是 undefined，整条挖掉。
   */
  private wrappedBody(st: ts.Statement): ts.Block | undefined {
    const expr = ts.isReturnStatement(st) ? st.expression : ts.isExpressionStatement(st) ? st.expression : undefined;
    const call = expr !== undefined && ts.isAwaitExpression(expr) ? expr.expression : expr;
    if (call === undefined || !ts.isCallExpression(call)) return undefined;
    const fns = call.arguments.filter((a): a is ts.ArrowFunction | ts.FunctionExpression => (ts.isArrowFunction(a) || ts.isFunctionExpression(a)) && ts.isBlock(a.body));
    const fn = fns.length === 1 ? fns[0] : undefined;
    if (fn === undefined || !ts.isBlock(fn.body)) return undefined;
    const body = fn.body;
    if (this.touched(st.getStart(this.sf), body.getStart(this.sf)) || this.touched(body.getEnd(), st.getEnd())) return undefined;
    return body;
  }

  /** 换掉块里连着的几条语句：整行换成一句 throw；挖到块尾时连同后面的注释一起拿走，只留右花括号。 */
  private replace(sts: readonly ts.Statement[], block: ts.Block, name: string, kind: Stub["kind"]): void {
    const text = this.sf.text;
    const first = sts[0];
    const last = sts.at(-1);
    if (first === undefined || last === undefined) throw new Error(`${name}: nothing to stub in an empty body`);
    const lineStart = (pos: number): number => text.lastIndexOf("\n", pos - 1) + 1;
    const start = lineStart(first.getStart(this.sf));
    const indent = /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
    const endLine = text.indexOf("\n", last.getEnd());
    const end = last === block.statements.at(-1) ? lineStart(block.getEnd() - 1) : endLine === -1 ? text.length : endLine + 1;
    const everything = kind === "part" && isFunctionLike(block.parent) && sts.length === block.statements.length;
    this.edits.push({ start, end, name, kind: everything ? "rewrite" : kind, removed: this.codeLines(start, end), indent, inline: false });
  }

  /** 不带花括号的一条语句（`if (…) return finish(assistant);` 里的 return）：就地换成 throw。 */
  private inline(st: ts.Statement, name: string): void {
    const [start, end] = [st.getStart(this.sf), st.getEnd()];
    this.edits.push({ start, end, name, kind: "part", removed: this.codeLines(start, end), indent: "", inline: true });
  }

  private codeLines(start: number, end: number): string[] {
    return this.sf.text.slice(start, end).split("\n").map((l) => l.trim()).filter((l) => l !== "" && !/^(\/\/|\/?\*)/.test(l));
  }
}

// ── 生成 ─────────────────────────────────────────────────
/** 一课的原料：这一课和上一课的 code.ts、这一课的 README。 */
export type LessonSource = { id: string; dir: string; prev: string; cur: string; readme: string };

export function lessonSource(id: string): LessonSource {
  const prevId = LESSONS.find((l) => lessonNumber(l) === lessonNumber(id) - 1);
  const dir = lessonDir(id);
  return { id, dir, cur: readLesson(id), prev: prevId === undefined ? "" : readLesson(prevId), readme: readFileSync(join(ROOT, dir, "README.md"), "utf8") };
}

/** 只挖空、不核对：whole 里的函数整个挖空；filled 里的空白不挖，留着这一课的原样（练习的前几个阶段已经写好时）。 */
export function stubSource(src: LessonSource, whole: ReadonlySet<string> = new Set(), filled: ReadonlySet<string> = new Set()): Practice {
  const demo = DEMO_BANNER.exec(src.cur);
  if (demo === null) throw new Error(`${src.dir}/code.ts: no "// ── 防线" or "// ── 假 provider" banner, cannot tell the mechanism from what is given`);
  const sf = ts.createSourceFile("code.ts", src.cur, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const planner = new Planner(sf, changedSpans(src.prev, src.cur), whole);
  planner.topLevel(sf.statements, demo.index);
  return render(src.id, src.dir, src.cur, src.readme, planner.edits.filter((e) => !filled.has(e.name)));
}

/**
 * 这一课的练习文件：文本和每处空白。生成的文本必须通过类型检查、API 报告与这一课相同，否则抛错。
 * verify: false 只挖空不核对（快，给只关心「挖了哪些」的文档检查用）。filled：这些空白（Stub 的 name）不挖，
 * 留着这一课的原样，用来做「前几个阶段已经写好」的练习文件（阶段表 stage-table.ts）。
 */
export function makePractice(id: string, { verify: check = true, filled = new Set<string>() }: { verify?: boolean; filled?: ReadonlySet<string> } = {}): Practice {
  const src = lessonSource(id);
  // 同一个进程里同样的输入（这一课和上一课的 code.ts、README、参数）只挖一次：npm test 里网站、提示、README 的测试
  // 对每课要它一百多次，每次都从头解析、比对两课的代码。交出去的是拷贝，谁改了也碰不到缓存里的那份。
  const key = JSON.stringify([src.cur, src.prev, src.readme, check, [...filled].sort()]);
  const cached = practices.get(key);
  if (cached !== undefined) return structuredClone(cached);
  const practice = makePracticeOnce(id, src, check, filled);
  practices.set(key, practice);
  return structuredClone(practice);
}
const practices = new Map<string, Practice>();

function makePracticeOnce(id: string, src: LessonSource, check: boolean, filled: ReadonlySet<string>): Practice {
  const whole = new Set<string>();
  for (let attempt = 0; ; attempt++) {
    const practice = stubSource(src, whole, filled);
    const problems = check ? verify(id, practice.text) : [];
    if (problems.length === 0) return practice;
    // 类型检查不过的函数整个挖空再试一次；还不行就是生成器的错
    const fresh = [...new Set(problems.map((p) => functionAt(practice.text, p.line)))].filter((c): c is string => c !== undefined && !whole.has(c));
    if (fresh.length === 0 || attempt > 5) throw new Error(`practice file for ${id} does not hold:\n  ${problems.map((p) => p.text).join("\n  ")}`);
    for (const c of fresh) whole.add(c);
  }
}

/** 第 line 行所在的顶层函数或方法的名字（`ToolRegistry.run`），和 Planner 起的名字一样。 */
function functionAt(text: string, line: number): string | undefined {
  if (line <= 0) return undefined;
  const sf = ts.createSourceFile("code.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const pos = sf.getPositionOfLineAndCharacter(line - 1, 0);
  const inside = (n: ts.Node): boolean => n.getFullStart() <= pos && pos < n.getEnd();
  for (const st of sf.statements.filter(inside)) {
    if (ts.isFunctionDeclaration(st) && st.name) return st.name.text;
    if (ts.isClassDeclaration(st) && st.name) {
      const m = st.members.find(inside);
      return m === undefined ? undefined : `${st.name.text}.${m.name && ts.isIdentifier(m.name) ? m.name.text : "constructor"}`;
    }
    if (ts.isVariableStatement(st)) return st.declarationList.declarations.find(inside)?.name.getText(sf);
  }
  return undefined;
}

function render(id: string, dir: string, cur: string, readme: string, edits: Edit[]): Practice {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let text = "";
  let pos = 0;
  const stubs: Stub[] = [];
  for (const e of sorted) {
    text += cur.slice(pos, e.start);
    // `ExtensionRuntime.use` → 找 use、ExtensionRuntime；`runEventedToolLoop › finish` → 找 finish、runEventedToolLoop
    const names = e.name.split(/ › |\./).reverse();
    const section = sectionFor(readme, { names, removed: e.removed, whole: e.kind !== "part" });
    const what = e.kind === "body" ? `写出 ${e.name}` : e.kind === "rewrite" ? `改写 ${e.name}` : `补上 ${e.name} 在这一课的改动`;
    const message = `TODO ${id}: ${what} —— 见 ${dir}/README.md「${section}」`;
    stubs.push({ name: e.name, kind: e.kind, line: text.split("\n").length, section, message, code: cur.slice(e.start, e.end) });
    const stub = `throw new Error(${JSON.stringify(message)});`;
    text += e.inline ? stub : `${e.indent}${stub}\n`;
    pos = e.end;
  }
  text += cur.slice(pos);
  return { id, dir, text, stubs };
}

/** 类型检查和 API 报告：和学习者的文件走同一个检查（tooling/api/extract.ts）。 */
function verify(id: string, text: string): { line: number; text: string }[] {
  const { report, diagnostics } = buildFileReport(join(ROOT, ".tmp", "practice-gen", lessonDir(id), "code.ts"), text);
  const problems = diagnostics.map((d) => ({ line: Number(/:(\d+):\d+ /.exec(d)?.[1] ?? 0), text: d }));
  const expected = JSON.parse(readFileSync(join(ROOT, "tests", "api", `${id}.json`), "utf8")) as Record<string, string>;
  for (const key of new Set([...Object.keys(expected), ...Object.keys(report)])) {
    if (expected[key] !== report[key]) problems.push({ line: 0, text: `API ${key}: ${expected[key]} → ${report[key]}` });
  }
  return problems;
}
