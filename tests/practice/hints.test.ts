// npm run hint（scripts/practice/hint.ts、hints.ts）：四级提示逐级多露一点，前三级不露答案；
// 讲的是练习文件里第一处还没写的空白；参数不对时一句中文、退出码 2。每条检查都有一个必须失败的样例。
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type HintWorld, hint, realWorld } from "../../scripts/practice/hint.ts";
import { type HintLesson, currentStub, hintBody, openStubs, skeleton } from "../../tooling/practice/hints.ts";
import { type Practice, type Stub, makePractice } from "../../tooling/practice/stub.ts";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import { stageOfStub } from "../../tooling/practice/stage-lookup.ts";
import { levelProblems } from "../support/hint-levels.ts";

const lessonOf = (id: string): HintLesson => ({
  code: readFileSync(join(ROOT, lessonDir(id), "code.ts"), "utf8"),
  readme: readFileSync(join(ROOT, lessonDir(id), "README.md"), "utf8"),
});
const practices = new Map<string, Practice>();
const practiceOf = (id: string): Practice => {
  const hit = practices.get(id) ?? makePractice(id, { verify: false });
  practices.set(id, hit);
  return hit;
};

const levelsOf = (lesson: HintLesson, stub: Stub): [string, string, string, string] => [
  hintBody(lesson, stub, 1),
  hintBody(lesson, stub, 2),
  hintBody(lesson, stub, 3),
  hintBody(lesson, stub, 4),
];

describe("四级提示：逐级多露一点，前三级不露答案", () => {
  for (const id of LESSONS) {
    it(`${id}：每一处空白`, () => {
      const lesson = lessonOf(id);
      const { stubs } = practiceOf(id);
      expect(stubs.length).toBeGreaterThan(0);
      for (const stub of stubs) expect(levelProblems(stub, levelsOf(lesson, stub)), `${id} ${stub.name}`).toEqual([]);
    });
  }

  it("s04 ToolRegistry.run：第 1 级是 README 那一小节的正文（列表在，代码块不在），第 3 级留着控制结构和注释", () => {
    const lesson = lessonOf("s04");
    const run = practiceOf("s04").stubs.find((s) => s.name === "ToolRegistry.run");
    if (run === undefined) throw new Error("s04 has no ToolRegistry.run stub");
    const [l1, l2, l3] = levelsOf(lesson, run);
    expect(l1).toContain("永远回一段文字，从不抛错");
    expect(l1).toMatch(/^1\. \*\*按名字找工具。\*\*/m);
    expect(l1).not.toContain("entry.tool.handler(");
    expect(l2).toMatch(/run\(call: ToolCall\): string \{\n\s+…\n\s+\}\n\}$/);
    expect(l3).toContain("} catch (error) {");
    expect(l3).toContain("// 参数是模型给的，不可信");
    expect(l3).toContain("if (…) return …;");
  });

  it("s04 runOneTurn：第 1 级留着那一小节的表格", () => {
    const stub = practiceOf("s04").stubs.find((s) => s.name === "runOneTurn");
    if (stub === undefined) throw new Error("s04 has no runOneTurn stub");
    expect(stub.section).toBe("6. 一定会停：maxTurns");
    expect(hintBody(lessonOf("s04"), stub, 1)).toMatch(/^\|.*Pi 的说法.*\|$/m);
  });

  it("改坏的提示会被抓到：第 3 级就是答案、第 3 级没比第 2 级多、第 4 级少了一行", () => {
    const lesson = lessonOf("s04");
    const run = practiceOf("s04").stubs.find((s) => s.name === "ToolRegistry.run");
    if (run === undefined) throw new Error("s04 has no ToolRegistry.run stub");
    const [l1, l2, l3, l4] = levelsOf(lesson, run);
    expect(levelProblems(run, [l1, l2, l4, l4]).some((p) => p.includes("level 3 shows the answer line"))).toBe(true);
    expect(levelProblems(run, [l1, l2, l2, l4])).toContain("ToolRegistry.run: level 3 does not show strictly more than level 2");
    const shorter = l4.replace(/^.*parseArguments.*$/m, "");
    expect(levelProblems(run, [l1, l2, l3, shorter])).toContain("ToolRegistry.run: level 4 is not the whole answer");
    expect(levelProblems(run, ["```ts\nx\n```", l2, l3, l4])).toContain("ToolRegistry.run: level 1 shows a code block");
  });

  it("骨架：表达式换成 …，结构、声明的名字、注释、小函数的签名留着", () => {
    const code = [
      "// 先拿到它",
      "const entry = this.tools.get(call.name);",
      "for await (const event of stream) {",
      "  if (event.type === \"tool_call\") calls.push(event.call);",
      "  yield event;",
      "}",
      "const finish = (m: Message): Message => {",
      "  agent.state.turn = m.turn + 1;",
      "  return m;",
      "};",
      "switch (kind) {",
      "  case \"a\":",
      "    break;",
      "}",
    ].join("\n");
    expect(skeleton(code)).toBe(
      [
        "// 先拿到它",
        "const entry = …;",
        "for await (…) {",
        "  if (…) …;",
        "  yield …;",
        "}",
        "const finish = (m: Message): Message => {",
        "  agent.state.turn = …;",
        "  return …;",
        "};",
        "switch (…) {",
        "  case …:",
        "    break;",
        "}",
      ].join("\n"),
    );
  });
});

describe("讲的是哪一处：练习文件里第一处还留着 TODO 的", () => {
  /** 把第 k 处空白（按 stubs 的顺序，同一句 throw 的数着第几句）换回原文：学习者写完了它。 */
  const fill = (practice: Practice, done: ReadonlySet<number>): string => {
    let text = practice.text;
    // 从后往前换，前面的位置不动
    const at: number[] = [];
    let from = 0;
    for (const s of practice.stubs) {
      const needle = `throw new Error(${JSON.stringify(s.message)});`;
      const i = practice.text.indexOf(needle, s.message === practice.stubs[at.length - 1]?.message ? from : 0);
      at.push(i);
      from = i + needle.length;
    }
    for (const k of [...done].sort((a, b) => b - a)) {
      const s = practice.stubs[k];
      const needle = `throw new Error(${JSON.stringify(s.message)});`;
      text = `${text.slice(0, at[k])}/* done */${text.slice(at[k] + needle.length)}`;
    }
    return text;
  };

  for (const id of ["s04", "s09"]) {
    it(`${id}：写完任意几处，剩下的按顺序排，第一处就是「现在这一处」`, () => {
      const practice = practiceOf(id);
      const n = practice.stubs.length;
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }), (doneList) => {
          const done = new Set(doneList);
          const text = fill(practice, done);
          const open = openStubs(practice.stubs, text);
          expect(open.length).toBe(n - done.size);
          // 每一处 throw 独一无二的空白：在不在 open 里，正好看它写没写
          const unique = practice.stubs.filter((s) => practice.stubs.filter((t) => t.message === s.message).length === 1);
          for (const s of unique) expect(open.includes(s), s.name).toBe(!done.has(practice.stubs.indexOf(s)));
          expect(currentStub(practice.stubs, text)).toBe(open[0]);
          if (done.size === n) expect(currentStub(practice.stubs, text)).toBeUndefined();
        }),
        { numRuns: 60 },
      );
    });
  }

  it("没有练习文件：第一处；顺序按传进来的 stubs（以后按阶段排也用同一个函数）", () => {
    const { stubs, text } = practiceOf("s04");
    expect(currentStub(stubs, undefined)).toBe(stubs[0]);
    expect(currentStub([...stubs].reverse(), text)).toBe(stubs.at(-1));
  });
});

describe("默认的顺序就是阶段的顺序（和 check 停的阶段一致）", () => {
  for (const id of LESSONS) {
    it(`${id}：realWorld 交出的空白按阶段排，第一处在第 1 阶段`, () => {
      const stubs = realWorld.stubs(id);
      const numbers = stubs.map((s) => stageOfStub(id, s.name)?.number ?? Number.NaN);
      expect(numbers[0]).toBe(1);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(new Set(stubs.map((s) => s.name))).toEqual(new Set(makePractice(id, { verify: false }).stubs.map((s) => s.name)));
    });
  }

  it("没写完的第一处在哪个阶段，标题就说哪个阶段", () => {
    const out = hint(["s04"], { ...realWorld, practice: () => undefined });
    expect(out.stdout.split("\n")[0]).toMatch(/^s04 第 1 阶段（共 \d 个）：/);
  });
});

describe("npm run hint 的参数", () => {
  const world: HintWorld = { stubs: (id) => practiceOf(id).stubs, lesson: lessonOf, practice: () => undefined };

  it("默认第 1 级、第一处；说下一级怎么要", () => {
    const out = hint(["s04"], world);
    expect(out.code).toBe(0);
    const first = practiceOf("s04").stubs[0];
    expect(out.stdout).toContain(`s04 · ${first.name}`);
    expect(out.stdout).toContain("第 1/4 级 · README 的讲解");
    expect(out.stdout).toContain("npm run hint -- s04 2");
  });

  it("练习文件写完了第一处，讲第二处；--part 换一处，下一级的命令带着它", () => {
    const { stubs, text } = practiceOf("s04");
    const firstDone = text.replace(`throw new Error(${JSON.stringify(stubs[0].message)});`, "");
    const second = hint(["s04", "2"], { ...world, practice: () => `// 多写了一行\n${firstDone}` }).stdout;
    expect(second).toContain(`s04 · ${stubs[1].name}`);
    // 行号是学习者文件里现在的行号
    expect(second).toContain(`练习文件第 ${stubs[1].line + 1} 行`);
    const out = hint(["s04", "3", "--part", "ToolRegistry.run"], world);
    expect(out.stdout).toContain("s04 · ToolRegistry.run");
    expect(out.stdout).toContain("npm run hint -- s04 4 --part ToolRegistry.run");
    expect(hint(["s04", "4", "--part=run"], world).stdout).toContain("这就是答案了");
  });

  it("没有这一课、级别不在 1–4、没有这一处、不认识的选项：一句中文，退出码 2", () => {
    const cases: [string[], string][] = [
      [[], "要说是哪一课"],
      [["s99"], "没有这一课：s99"],
      [["s04", "5"], "提示只有 1–4 级，没有「5」"],
      [["s04", "0"], "提示只有 1–4 级，没有「0」"],
      [["s04", "x"], "提示只有 1–4 级，没有「x」"],
      [["s04", "--part", "nope"], "s04 没有叫「nope」的空白"],
      [["s04", "--part"], "--part 后面要跟一处空白的名字"],
      [["s04", "--answer"], "不认识的选项：--answer"],
      [["s04", "1", "2"], "多了参数：2"],
    ];
    for (const [args, message] of cases) {
      const out = hint(args, world);
      expect(out.code, args.join(" ")).toBe(2);
      expect(out.stderr, args.join(" ")).toContain(message);
      expect(out.stderr).toContain("用法：npm run hint -- s04");
      expect(out.stdout).toBe("");
    }
  });

  it("package.json 的 hint 脚本真的是它：坏参数从命令行进来也是退出码 2", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.hint).toBe("tsx scripts/practice/hint.ts");
    let status = 0;
    let stderr = "";
    try {
      execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/practice/hint.ts"), "s04", "9"], { cwd: ROOT, stdio: "pipe" });
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      status = e.status;
      stderr = e.stderr.toString();
    }
    expect(status).toBe(2);
    expect(stderr).toContain("提示只有 1–4 级");
  });
});
