// 练习的阶段和给学习者的话，跑在 npm test 里的快检查：阶段表（tooling/practice/stage-table.ts）和练习文件、README 对得上；
// 生成的测试归属（tooling/practice/stage-tests.json）每课都有、每个阶段至少管一个测试；README 摘录的检查不进练习；
// 规则编号换成术语表的话；轨迹的第一处不同说成人话。每条检查都配一个必须失败的例子。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import { courseTestFiles } from "../../tooling/practice/course-tests.ts";
import { forLearner, glossaryWords, plainWords, ruleWords, traceLines } from "../../tooling/practice/explain.ts";
import { howItWorks } from "../../tooling/practice/readme.ts";
import { blame, readStageMap, stageOfTest, stagesOf } from "../../tooling/practice/stage-lookup.ts";
import type { Stage } from "../../tooling/practice/stage-table.ts";
import { makePractice } from "../../tooling/practice/stub.ts";
import type { Trace } from "../../tooling/scenarios/shape.ts";

/**
 * 表和练习文件对得上吗：每课 1–4 个阶段（机制只有一个函数的课只有一个阶段，D52）；练习文件的每处空白恰好在一个阶段里；表里点名的空白都存在；
 * 每个阶段的小节在 README 里有（sections：这一课「工作原理」里的小节标题）。返回问题，空数组 = 对得上。
 */
function stageTableProblems(id: string, stages: readonly Stage[], stubs: readonly string[], sections: readonly string[]): string[] {
  const problems: string[] = [];
  if (stages.length < 1 || stages.length > 4) problems.push(`${id}: ${stages.length} stages, want 1–4`);
  const named = stages.flatMap((s) => s.stubs);
  for (const stub of new Set(stubs)) {
    const n = named.filter((x) => x === stub).length;
    if (n !== 1) problems.push(`${id}: stub ${stub} is in ${n} stages, want exactly 1`);
  }
  for (const [i, s] of stages.entries()) {
    if (s.stubs.length === 0) problems.push(`${id} stage ${i + 1} (${s.title}): no stubs`);
    for (const stub of s.stubs) if (!stubs.includes(stub)) problems.push(`${id} stage ${i + 1} (${s.title}): no stub named ${stub} in the practice file`);
    if (!sections.includes(s.section)) problems.push(`${id} stage ${i + 1} (${s.title}): README has no section 「${s.section}」`);
  }
  return problems;
}

const readme = (id: string): string => readFileSync(join(ROOT, lessonDir(id), "README.md"), "utf8");

describe("阶段表", () => {
  const map = readStageMap();
  for (const id of LESSONS) {
    it(`${id}：每处空白恰好在一个阶段里，点名的空白和 README 小节都在；生成的测试归属里每个阶段至少管一个测试`, () => {
      const stubs = makePractice(id, { verify: false }).stubs.map((s) => s.name);
      expect(stageTableProblems(id, stagesOf(id), stubs, howItWorks(readme(id)).map((p) => p.title))).toEqual([]);
      const owned = map[id];
      expect(owned, `tooling/practice/stage-tests.json has no ${id}: run npm run gen:stages`).toBeDefined();
      expect(owned?.stages.length, `${id}: tooling/practice/stage-tests.json is out of date with tooling/practice/stage-table.ts: run npm run gen:stages`).toBe(stagesOf(id).length + 1);
      for (const [k, tests] of (owned?.stages ?? []).entries()) {
        if (k > 0) expect(tests.length, `${id} stage ${k} owns no test that fails before it: write a focused behaviour test for its part`).toBeGreaterThan(0);
      }
      // 测试靠的空白：都是这一课的空白，都是表里的测试；每处空白都至少有一个测试靠它（不然它写错了什么都拦不住）
      const tests = new Set(owned?.stages.flat());
      const needs = Object.entries(owned?.needs ?? {});
      for (const [test, on] of needs) {
        expect(tests.has(test), `${id}: ${test} has needs but no stage: run npm run gen:stages`).toBe(true);
        for (const stub of on) expect(stubs, `${id}: ${test} needs ${stub}, which the practice file no longer has: run npm run gen:stages`).toContain(stub);
      }
      for (const stub of new Set(stubs)) expect(needs.some(([, on]) => on.includes(stub)), `${id}: no test needs ${stub}`).toBe(true);
    });
  }

  it("表写错了会被发现：空白重复、点名了不存在的空白、小节不存在、没有阶段或阶段太多", () => {
    const stage = { title: "A", asks: "a", stubs: ["f"], section: "1. A" };
    expect(stageTableProblems("s99", [stage, { ...stage, stubs: ["f", "g"] }], ["f"], ["1. A"]).join("\n")).toMatch(/f is in 2 stages[\s\S]*no stub named g/);
    expect(stageTableProblems("s99", [stage, { ...stage, stubs: ["g"], section: "2. B" }], ["f", "g"], ["1. A"])).toEqual(["s99 stage 2 (A): README has no section 「2. B」"]);
    // 一个阶段可以（机制只有一个函数的课，D52）；没有阶段、五个阶段都不行
    expect(stageTableProblems("s99", [stage], ["f"], ["1. A"])).toEqual([]);
    expect(stageTableProblems("s99", [], [], ["1. A"])).toEqual(["s99: 0 stages, want 1–4"]);
    const five = ["f", "g", "h", "i", "j"].map((f) => ({ ...stage, stubs: [f] }));
    expect(stageTableProblems("s99", five, ["f", "g", "h", "i", "j"], ["1. A"])).toEqual(["s99: 5 stages, want 1–4"]);
    expect(stageTableProblems("s99", [stage, { ...stage, stubs: ["g"] }], ["f", "g", "h"], ["1. A"])).toEqual(["s99: stub h is in 0 stages, want exactly 1"]);
  });

  it("第 0 组（刚生成的文件上就过的）算第 1 阶段；表里没有的测试（生成之后才加的）算最后一个阶段", () => {
    const map = { s04: { stages: [["tests/a.test.ts: s04 > old"], [], ["tests/a.test.ts: s04 > x"], []], needs: {} } };
    expect(stageOfTest(map, "s04", { file: "tests/a.test.ts", name: "s04 > old" })).toBe(1);
    expect(stageOfTest(map, "s04", { file: "tests/a.test.ts", name: "s04 > x" })).toBe(2);
    expect(stageOfTest(map, "s04", { file: "tests/a.test.ts", name: "s04 > new" })).toBe(stagesOf("s04").length);
  });
});

describe("没过的时候怪谁（blame）", () => {
  // s04 第 3 阶段：buildProviderInput、runEventedToolLoop、runOneTurn（练习顺序看表）
  const [first, second, third] = stagesOf("s04")[2].stubs;
  const t = (name: string) => ({ file: "tests/a.test.ts", name: `s04 > ${name}` });
  const map = {
    s04: {
      stages: [[], [], [], ["tests/a.test.ts: s04 > loop", "tests/a.test.ts: s04 > direct", "tests/a.test.ts: s04 > nothing"]],
      needs: { "tests/a.test.ts: s04 > loop": ["ToolRegistry.run", first, second, third], "tests/a.test.ts: s04 > direct": [second] },
    },
  };
  it("讲靠这个阶段的空白最少的那个测试，怪它靠的那一处；几处都靠时怪练习顺序最前的那一处；前面阶段的空白不算", () => {
    expect(blame(map, "s04", 3, [t("loop"), t("direct")])).toEqual({ test: t("direct"), stub: second });
    expect(blame(map, "s04", 3, [t("loop")])).toEqual({ test: t("loop"), stub: first });
  });
  it("会失败：只按先后挑会讲错测试；一处都不靠、表里没有的测试排在后面，也说不出怪谁", () => {
    expect(blame(map, "s04", 3, [t("loop"), t("direct")])?.test).not.toEqual(t("loop"));
    expect(blame(map, "s04", 3, [t("nothing"), t("new"), t("loop")])).toEqual({ test: t("loop"), stub: first });
    expect(blame(map, "s04", 3, [t("nothing"), t("new")])).toEqual({ test: t("nothing"), stub: undefined });
    expect(blame(map, "s04", 3, [])).toBeUndefined();
  });
});

describe("练习只跑课程的测试", () => {
  it("README 摘录和 code.ts 的比对（tests/docs.test.ts，tooling/docs/excerpts.ts）不在练习的检查里：正确的代码不必和 README 一字不差", () => {
    const { behaviour, golden } = courseTestFiles();
    const files = [...behaviour, ...golden];
    expect(files).not.toContain("tests/docs.test.ts");
    for (const f of files) expect(readFileSync(join(ROOT, f), "utf8"), f).not.toMatch(/tooling\/docs\/|excerpts/);
    expect(files).toContain("tests/golden.test.ts");
  });
});

describe("给学习者的话", () => {
  it("规则、决策的编号换成术语表（GLOSSARY.md）的话；没点到编号就不说", () => {
    const words = glossaryWords();
    expect(words.get("R5")).toBe("循环一定会停");
    expect(words.get("D4")).toBe("每次回答都存");
    expect(ruleWords("s04 > R5：模型一直要工具也会停", words)).toBe("R5 循环一定会停");
    expect(ruleWords("s04 > recordToolCalls（D41）：任意事件流", words)).toMatch(/^D41 \S/);
    expect(ruleWords("s04 > R4 第 1 类 和 D4", words)).toBe("R4 错误不崩溃；D4 每次回答都存");
    expect(ruleWords("s04 > 同名工具登记两次是一个清楚的错误", words)).toBeUndefined();
    expect(ruleWords("s04 > R-写① 和 R99", words)).toBeUndefined();
  });

  it("术语表的条目用 mdast 读：加粗开头的编号段落，别的加粗不算", () => {
    const words = glossaryWords("**R1 字段只增不删**：说明\n\n**core**：不是编号\n\n正文里的 **D7 也不算**\n");
    expect([...words]).toEqual([["R1", "字段只增不删"]]);
  });

  it("维护者的命令、调用栈从学习者的那一行里拿掉", () => {
    expect(forLearner("trace differs from tests/golden; if the change is intended, run npm run gen:golden and review the diff")).toBe("trace differs from tests/golden");
    expect(forLearner("    at runOneTurn (practice/s04/code.ts:12:3)")).toBeUndefined();
    expect(forLearner("跑 npm test 看看")).toBeUndefined();
    expect(forLearner("期望：「ok」")).toBe("期望：「ok」");
  });

  const msg = (role: "user" | "assistant" | "toolResult", content: string, extra: object = {}) => ({ role, content, ...extra });
  const base: Trace = { steps: ['turn "go" → assistant[stop]: 好'], messages: [msg("user", "go"), msg("assistant", "好", { stopReason: "stop" })], requests: [], output: [] };
  it("轨迹的第一处不同说成一句人话：回答以 stop 结束，调用却照样跑了", () => {
    const ran: Trace = { ...base, messages: [...base.messages, msg("toolResult", "x", { toolCallId: "c1" })] };
    expect(plainWords(base, ran, "messages")).toBe("第 3 条消息：回答以 stop 结束，调用却照样跑了（多存了一条工具结果）");
    const wants: Trace = { ...base, messages: [msg("user", "go"), msg("assistant", "", { stopReason: "toolUse" }), msg("toolResult", "x", { toolCallId: "c1" })] };
    expect(plainWords(wants, { ...wants, messages: wants.messages.slice(0, 2) }, "messages")).toBe("第 3 条消息：回答要了工具，这里该有它的结果，实际什么都没存");
    expect(plainWords(base, { ...base, steps: ['turn "go" → assistant[error]: error: boom'] }, "steps")).toBe("第 1 步：回答应该以 stop 结束，实际以 error 结束");
    expect(plainWords(base, base, "messages")).toBeUndefined();
    expect(plainWords(base, { ...base, output: ["x"] }, "output")).toBeUndefined();
  });

  it("一步的回答收尾没错、只是文字不同时，讲存下的消息哪里先错了（golden.test 点名的是 steps 也一样）", () => {
    const ran: Trace = { ...base, steps: ['turn "go" → assistant[stop]: 好了'], messages: [...base.messages, msg("toolResult", "x", { toolCallId: "c1" })] };
    expect(traceLines(base, ran, "steps")[0]).toBe("第 3 条消息：回答以 stop 结束，调用却照样跑了（多存了一条工具结果）");
    // 消息一样时还是讲那一步
    expect(traceLines(base, { ...base, steps: ['turn "go" → assistant[stop]: 好了'] }, "steps")[0]).toBe("第 1 步：回答以 stop 结束，没错，但文字不一样");
  });
});
