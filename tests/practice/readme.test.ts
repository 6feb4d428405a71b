// 练习模式（scripts/practice/）的快检查，跑在 npm test 里：每课 README 的「自己写一遍」点到了每一处空白、
// 命令写对了；挖空的规则、失败说成人话的规则各有小例子；每条检查都有一个必须失败的改坏了的 README。
// 真跑 check 的证明（练习文件能过类型检查、check 拦得住它、答案能过、常见的错会被拦下、README 贴的是真输出）
// 太慢，在 tests/practice/exercises.proof.ts，由 npm run test:practice 跑（.ci/run 也跑）。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiMismatch, diagnosticLines, findTodo, testLines, traceLines } from "../../tooling/practice/explain.ts";
import { parseLesson } from "../../tooling/practice/lesson-arg.ts";
import { checkPracticeSection } from "../../tooling/practice/readme.ts";
import { firstFailurePart, formatReport, wantsColor } from "../../tooling/practice/check-report.ts";
import { MAINTAINER_TEXT } from "./learner-text.ts";
import { makePractice, stubSource } from "../../tooling/practice/stub.ts";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import type { Trace } from "../../tooling/scenarios/shape.ts";
import { stagesOf } from "../../tooling/practice/stage-lookup.ts";

const readme = (id: string): string => readFileSync(join(ROOT, lessonDir(id), "README.md"), "utf8");

describe("每课 README 的「自己写一遍」", () => {
  for (const id of LESSONS) {
    it(`${id}：工作原理开头让读者选先读还是先写；两条命令、挖了哪些、第一次 check 看到的那一段`, () => {
      expect(checkPracticeSection(id, readme(id), makePractice(id, { verify: false }).stubs, stagesOf(id))).toEqual([]);
    });
  }

  it("npm run practice / check 是 package.json 里的脚本，根 README 的「怎么读」提到它们", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.practice).toBe("tsx scripts/practice/practice.ts");
    expect(scripts.check).toBe("tsx scripts/practice/check.ts");
    const root = readFileSync(join(ROOT, "README.md"), "utf8");
    const howToRead = root.slice(root.indexOf("## 怎么读"), root.indexOf("\n## ", root.indexOf("## 怎么读") + 1));
    expect(howToRead).toContain("`npm run practice -- s04`");
    expect(howToRead).toContain("`npm run check -- s04`");
  });
});

describe("「自己写一遍」的检查会失败", () => {
  const id = "s04";
  const text = readme(id);
  const stubs = makePractice(id, { verify: false }).stubs;
  const stages = stagesOf(id);
  const block = /```text\n(你在第[^`]*)```/.exec(text)?.[1] ?? "";
  const cases: { what: string; readme: string; output?: string; message: RegExp }[] = [
    { what: "没有这一小节", readme: text.replace("### 自己写一遍", "### 自己练"), message: /missing/ },
    { what: "工作原理开头没让读者选先读还是先写", readme: text.replace(/^> 两种读法.*\n\n/m, ""), message: /工作原理: must open with the choice/ },
    { what: "选的那一行没说怎么要提示", readme: text.replace("`npm run hint -- s04`", "`npm run hint`"), message: /missing `npm run hint -- s04`/ },
    { what: "选的那一行不在工作原理的开头", readme: text.replace(/^(> 两种读法.*)\n\n(这一节的零件.*)$/m, "$2\n\n$1"), message: /工作原理: must open with the choice/ },
    { what: "没说改一次文件多久看到报告", readme: text.replace(/^改一次文件，多久看到报告.*\n/m, ""), message: /how long a check takes after an edit/ },
    { what: "命令写成了别的课", readme: text.replace("npm run check -- s04", "npm run check -- s03"), message: /exactly the two commands/ },
    { what: "漏说了一处空白", readme: text.replace("`recordToolCalls`、", ""), message: /`recordToolCalls`.*not named/ },
    { what: "阶段列错了顺序", readme: text.replace(`1. **${stages[0].title}**`, "1. **别的**").replace(`2. **${stages[1].title}**`, `2. **${stages[0].title}**`), message: /numbered list must name the 3 stages/ },
    { what: "输出不是从「你在第…阶段」开始", readme: text.replace(block, `检查 practice/x\n${block}`), message: /must start at/ },
    { what: "输出和真跑的不一样", readme: text, output: block.replace("第 1 阶段", "第 2 阶段"), message: /differs .* at line 1/ },
  ];
  it("改坏的 s04 README 原本是好的", () => {
    expect(block).not.toBe("");
    expect(checkPracticeSection(id, text, stubs, stages, block)).toEqual([]);
  });
  for (const c of cases) {
    it(c.what, () => {
      const problems = checkPracticeSection(id, c.readme, stubs, stages, c.output);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.join("\n")).toMatch(c.message);
    });
  }
});

// ── 挖空的规则：一课假想的代码，上一版 → 这一版 ──────────────
const lesson = (body: string): string =>
  `export type Msg = { text: string };\n${body}\n// ── 假 provider（离线、确定） ─────\nexport function demo(): string {\n  return "demo";\n}\n`;
const stub = (prev: string, cur: string) => stubSource({ id: "s05", dir: "s05_x", prev: lesson(prev), cur: lesson(cur), readme: "## 工作原理\n" });

describe("挖空：只挖这一课写的函数体", () => {
  const before = [
    "export function loop(items: string[]): string {",
    "  const { length } = items;",
    "  for (const item of items) {",
    "    if (item === \"\") return \"empty\";",
    "  }",
    "  return String(length);",
    "}",
  ].join("\n");

  it("新函数整个函数体换成 throw，签名留着；演示不动", () => {
    const p = stub(before, `${before}\nexport function fresh(a: number): number {\n  const b = a + 1;\n  return b * 2;\n}`);
    expect(p.stubs.map((s) => [s.kind, s.name])).toEqual([["body", "fresh"]]);
    expect(p.text).toContain('export function fresh(a: number): number {\n  throw new Error("TODO s05: 写出 fresh —— 见 s05_x/README.md「工作原理」");\n}');
    expect(p.text).toContain('return "demo";');
    expect(p.text).toContain(before);
  });

  it("改了 if 后面那一句：只换那一句，条件留着", () => {
    const p = stub(before, before.replace('return "empty";', 'return finish("empty");'));
    expect(p.stubs.map((s) => s.kind)).toEqual(["part"]);
    expect(p.text).toContain('    if (item === "") throw new Error("TODO s05: 补上 loop 在这一课的改动');
    expect(p.text).toContain("  return String(length);");
  });

  it("只多解构出一个名字不算机制；只改注释也不算", () => {
    const p = stub(before, before.replace("const { length } = items;", "const { length, at } = items;").replace("  return String", "  // 长度\n  return String"));
    expect(p.stubs).toEqual([]);
  });

  it("改了一条声明：从它挖到块尾，后面的代码不会找不到名字", () => {
    const p = stub(before, before.replace("const { length } = items;", "const length = count(items);"));
    expect(p.stubs.map((s) => s.kind)).toEqual(["rewrite"]);
    expect(p.text).toContain('export function loop(items: string[]): string {\n  throw new Error("TODO s05: 改写 loop —— 见');
  });
});

// ── 失败说成人话 ─────────────────────────────────────────
describe("失败说成人话", () => {
  it("空白：TODO 那句话拆成「还空着」和提示，藏在 error: 结果里也找得到", () => {
    const todo = findTodo('{"content":"error: TODO s04: 写出 run —— 见 s04_tool_loop/README.md「3. 谁来执行」"}');
    expect(todo).toBe("TODO s04: 写出 run —— 见 s04_tool_loop/README.md「3. 谁来执行」");
    expect(testLines([{ message: `x ${todo}` }])).toEqual(["还空着：写出 run（s04 的 TODO）", "提示：见 s04_tool_loop/README.md「3. 谁来执行」"]);
  });

  it("fast-check 的性质没过：说出那个反例，再说那一次没满足的断言", () => {
    const property = { message: "Property failed after 3 tests\n{ seed: 1, path: \"2\" }\nCounterexample: [1,\"deep\"]\nShrunk 1 time(s)", cause: { message: "expected false to be true", diff: "- Expected\n+ Received\n\n- true\n+ false" } };
    expect(testLines([property])).toEqual(['随机生成的输入里，这一个不行：[1,"deep"]', "没满足：expected false to be true", "期望（-）和实际（+）：", "  - true", "  + false"]);
  });

  it("语法错误指到那一行那一列", () => {
    expect(diagnosticLines("practice/s04_x/code.ts:2:13 TS1109: Expression expected.", "line one\n  const x = ;\n")).toEqual([
      "第 2 行，第 13 列：TS1109 Expression expected.",
      "  2 |   const x = ;",
      "    |             ^",
    ]);
  });

  it("API 不同：少了、变了、多了导出的；自己加的未导出辅助函数不算", () => {
    const expected = { run: "export function () => void", "run@since": "s04", Box: "export type", "Box.a": ": string" };
    const actual = { runLoop: "export function () => void", "runLoop@since": "s04", Box: "export type", "Box.a": ": number", helper: "function () => void" };
    expect(apiMismatch(expected, actual)).toEqual({
      missing: ["run", "run@since"],
      changed: [{ key: "Box.a", expected: ": string", actual: ": number" }],
      extra: ["runLoop", "runLoop@since"],
    });
  });

  it("黄金轨迹：第一处不同说成哪一步、期望什么、实际什么", () => {
    const base: Trace = { steps: ['loop "go" (maxTurns 3) → assistant[stop]: max turns reached'], messages: [], requests: [], output: ["a", "  → b"] };
    expect(traceLines(base, { ...base, steps: ['loop "go" (maxTurns 3) → assistant[toolUse]: '] })).toEqual([
      "第 1 步：回答应该以 stop 结束，实际以 toolUse 结束",
      '第 1 步 loop "go" (maxTurns 3)',
      "  期望：assistant[stop]: max turns reached",
      "  实际：assistant[toolUse]: ",
    ]);
    expect(traceLines(base, { ...base, output: ["a", "  -> b"] }, "output")).toEqual([
      "Output 写出的第 2 行（一共应有 2 行，实际 2 行）",
      "  期望：「  → b」",
      "  实际：「  -> b」",
    ]);
  });
});

describe("报告", () => {
  const checks = (status: "pass" | "fail") => [
    { name: "类型检查", status: "pass" as const, note: "" },
    { name: "第 1 阶段 A", status, note: status === "pass" ? "3 个全过" : "3 个里过了 2 个" },
    { name: "第 2 阶段 B", status: "skip" as const, note: "" },
  ];
  const stage = { current: 1, of: 2, stage: { title: "A", asks: "做 A", stubs: ["a"], section: "1. A" }, restHere: 0, later: 4 };
  it("全过：说过关，给出下一课的命令；最后一课说全写完了；--solution 只说通过", () => {
    expect(formatReport({ id: "s04", file: join(ROOT, "practice/s04_tool_loop/code.ts"), checks: checks("pass"), ok: true }, false)).toContain("s04 过关了！下一课：npm run practice -- s05");
    expect(formatReport({ id: "s12", file: "x", checks: checks("pass"), ok: true }, false)).toContain("十二课的零件你都亲手写过一遍了");
    expect(formatReport({ id: "s12", file: "x", checks: checks("pass"), ok: true }, false)).toContain("npm run graduate -- 1");
    expect(formatReport({ id: "s04", file: "x", checks: checks("pass"), ok: true }, true)).toContain("s04 自己的代码全部通过");
  });
  it("没过：✗ 那一项、后面的阶段没轮到；你在第几阶段、它要什么，第一个没过的那一段带着规则、重读哪一行，其余的只报数", () => {
    const first = { title: "T", lines: ["a"], about: "R5 循环一定会停", reread: "s04_tool_loop/README.md:158「5. 循环本身」" };
    const report = formatReport({ id: "s04", file: "x", checks: checks("fail"), ok: false, first, stage }, false);
    expect(report).toContain("  ✗ 第 1 阶段 A：3 个里过了 2 个\n  · 第 2 阶段 B：没轮到");
    expect(firstFailurePart(report)).toBe(
      [
        "你在第 1 阶段（共 2 个）：A —— 做 A",
        "",
        "第一个没过的 —— T",
        "  守的规则：R5 循环一定会停",
        "  a",
        "  再读：s04_tool_loop/README.md:158「5. 循环本身」",
        "",
        "这一阶段就这一个没过，后面阶段的 4 个先不用管。",
        "改完再查：npm run check -- s04（加 --watch 每次保存自动重查）",
      ].join("\n"),
    );
    expect(formatReport({ id: "s04", file: "x", checks: checks("fail"), ok: false, first, stage: { ...stage, restHere: 3 } }, false)).toContain("这一阶段还有 3 个没过，后面阶段的 4 个先不用管。");
  });
  it("颜色：只在要颜色时有；要不要看终端和 NO_COLOR", () => {
    const outcome = { id: "s04", file: "x", checks: checks("fail"), ok: false, first: { title: "T", lines: [] }, stage };
    expect(formatReport(outcome, false)).not.toContain("\x1b[");
    expect(formatReport(outcome, false, { color: true })).toContain("\x1b[31m✗\x1b[0m");
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: "" })).toBe(false);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({}, {})).toBe(false);
  });
  it("维护者的命令、调用栈不进报告：golden.test.ts 的「run npm run gen:golden」那半句拿掉，只剩它的都拿掉", () => {
    const first = { title: "黄金轨迹没对上", lines: ["没满足：trace differs from tests/golden; if the change is intended, run npm run gen:golden and review the diff", "    at Object.<anonymous> (tests/golden.test.ts:77:10)", "npm test"] };
    const report = formatReport({ id: "s04", file: "x", checks: checks("fail"), ok: false, first, stage }, false);
    expect(report).toContain("  没满足：trace differs from tests/golden\n");
    for (const banned of MAINTAINER_TEXT) expect(report).not.toMatch(banned);
  });
});

describe("课号", () => {
  it("s04、4、04、s04_tool_loop 都是 s04；没有的课是 undefined", () => {
    expect(["s04", "4", "04", "s04_tool_loop"].map(parseLesson)).toEqual(["s04", "s04", "s04", "s04"]);
    expect(["s13", "s4x", "", undefined, "tool_loop"].map(parseLesson)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
