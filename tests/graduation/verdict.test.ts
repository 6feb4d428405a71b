// 毕业检查的判定、两边不同的说法和报告（tooling/graduation/verdict.ts、verdict-package.ts、differences.ts、report.ts），
// 喂手写的「Pi 跑出来的样子」，不用装 Pi：每条要求过的样子、没过的样子各一份，没过时说的是对的那件事。
// 真的 Pi 跑出来的样子在 tests/graduation/graduate.proof.ts 里核对。
import { describe, expect, it } from "vitest";
import type { Entry, FidelityTrace } from "../../fidelity/compare.ts";
import type { GraduationOutcome } from "../../tooling/graduation/check.ts";
import { explainRun } from "../../tooling/graduation/differences.ts";
import { AGENTS_TEXT, DOOMED_FILE, exercise, OUTSIDE_TEXT, SKILL } from "../../tooling/graduation/exercises.ts";
import { formatGraduation } from "../../tooling/graduation/report.ts";
import type { LearnerExtension, PiRun } from "../../tooling/graduation/runs.ts";
import { chooseNode } from "../../tooling/graduation/setup.ts";
import { align } from "../../tooling/graduation/side-by-side.ts";
import { nodeRunsPi } from "../../fidelity/pi-process.ts";
import { type Requirement, verdict } from "../../tooling/graduation/verdict.ts";
import { MAINTAINER_TEXT } from "../practice/learner-text.ts";

const README = "# todo-app\n一个命令行待办清单。";
const DEMO = { "README.md": README };
const TARGET = "/learner/file.ts";
const run = (over: Partial<PiRun>): PiRun => ({ label: "", history: [], prompts: [], problems: [], learner: [], gate: [], files: {}, ...over });
const result = (id: string, isError: boolean, text: string): Entry => ({ role: "toolResult", toolCallId: id, isError, text });
const dialogue = (calls: string[], results: Entry[]): FidelityTrace => [
  { role: "system" },
  { role: "user", text: "…" },
  { role: "assistant", stopReason: "toolUse", text: "…", calls },
  ...results,
  { role: "assistant", stopReason: "stop", text: "…", calls: [] },
];
const READ_TOOL: LearnerExtension = { path: TARGET, tools: [{ name: "read", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }], events: [] };
const GATE: LearnerExtension = { path: TARGET, tools: [], events: ["tool_call"] };
const judge = (n: 1 | 2 | 3, runs: PiRun[], manifest?: unknown): Requirement[] =>
  verdict({ ex: exercise(n), runs, target: TARGET, shown: (t) => t, demo: DEMO, ...(n === 3 ? { manifest: { ok: true as const, pi: manifest } } : {}) });
const failed = (rs: Requirement[]): { name: string; text: string }[] => rs.filter((r) => r.status === "fail").map((r) => ({ name: r.name, text: r.lines.join("\n") }));

describe("练习 1 的判定", () => {
  const good = [result("call_1", false, README), result("call_2", true, "outside"), result("call_3", true, "a link out")];
  it("围栏守住了就全过；漏出外面的字、没拒绝的，各说各的", () => {
    expect(failed(judge(1, [run({ learner: [READ_TOOL], history: dialogue(["call_1", "call_2", "call_3"], good) })]))).toEqual([]);
    const leaky = [good[0] as Entry, result("call_2", false, OUTSIDE_TEXT), result("call_3", false, "")];
    const f = failed(judge(1, [run({ learner: [READ_TOOL], history: dialogue(["call_1", "call_2", "call_3"], leaky) })]));
    expect(f.map((x) => x.name)).toEqual(["走出工作目录的 ../secret.txt 读不到", "指到外面的链接 notes.md 读不到"]);
    expect(f[0]?.text).toMatch(/读出来了[\s\S]*path\.relative/);
    expect(f[1]?.text).toMatch(/没被拒绝/);
  });

  it("扩展没装上、还空着、工具名字不对、参数不对：后面几条没轮到", () => {
    const todo = "TODO 毕业 1：写出 fencedRead —— 见 graduation/README.md「练习 1：工具」";
    const empty = judge(1, [run({ problems: [`${TARGET}：Failed to load extension: ${todo}`] })]);
    expect(empty.map((r) => r.status)).toEqual(["fail", "skip", "skip", "skip", "skip"]);
    expect(empty[0]?.lines).toEqual([`还空着：${todo}`]);
    const renamed = judge(1, [run({ learner: [{ ...READ_TOOL, tools: [{ name: "read_file", parameters: {} }] }] })]);
    expect(failed(renamed)[0]?.text).toMatch(/叫 read_file，不叫 read[\s\S]*F23/);
    const noPath = judge(1, [run({ learner: [{ ...READ_TOOL, tools: [{ name: "read", parameters: { type: "object", properties: {} } }] }] })]);
    expect(failed(noPath)[0]?.text).toMatch(/必填的字符串 path/);
    const noDefault = judge(1, [run({ problems: [`${TARGET}：Extension does not export a valid factory function: ${TARGET}`] })]);
    expect(failed(noDefault)[0]?.text).toMatch(/默认导出一个函数/);
  });
});

describe("练习 2 的判定", () => {
  const blocked = (text: string, answered: string): PiRun =>
    run({ learner: [GATE], files: { [DOOMED_FILE]: true }, gate: [{ toolName: "rm", answered }], history: dialogue(["call_1", "call_2"], [result("call_1", true, text), result("call_2", false, README)]) });
  it("拦下、说明理由、别的放行就全过；没写 reason、什么都拦，各说各的", () => {
    expect(failed(judge(2, [blocked("删除 src/config.ts 需要人来确认", '{"block":true}')]))).toEqual([]);
    expect(failed(judge(2, [blocked("Tool execution was blocked", '{"block":true}')]))[0]?.text).toMatch(/没说为什么/);
    const all = run({ ...blocked("x", '{"block":true}'), gate: [{ toolName: "read", answered: '{"block":true,"reason":"不行"}' }] });
    all.history = dialogue(["call_1", "call_2"], [result("call_1", true, "x"), result("call_2", true, "不行")]);
    expect(failed(judge(2, [all]))[0]?.text).toMatch(/你的监听对 read 回了[\s\S]*只拦 rm/);
  });

  it("rm 真的删了：说出监听回了什么——mini Pi 的 {type: \"block\"}，或者什么都没回（F37）", () => {
    const ran = (answered: string): PiRun => ({ ...blocked(`deleted ${DOOMED_FILE}`, answered), files: { [DOOMED_FILE]: false }, history: dialogue(["call_1", "call_2"], [result("call_1", false, "deleted"), result("call_2", false, README)]) });
    expect(failed(judge(2, [ran('{"type":"block","reason":"no"}')]))[0]?.text).toMatch(/被删掉了[\s\S]*这是 mini Pi 的写法/);
    expect(failed(judge(2, [ran("undefined")]))[0]?.text).toMatch(/什么都不回就是放行[\s\S]*F37/);
    expect(failed(judge(2, [run({ learner: [{ ...GATE, events: ["tool_execution_start"] }] })]))[0]?.text).toMatch(/你订阅的是 tool_execution_start/);
  });
});

describe("练习 3 的判定", () => {
  const prompt = `<project_instructions>${AGENTS_TEXT}</project_instructions> ${SKILL.name} ${SKILL.description}`;
  const withExt: LearnerExtension = { path: `${TARGET}/src/project-notes.ts`, tools: [], events: ["before_agent_start"] };
  it("信任时两样都在、不信任时都不在就全过", () => {
    expect(failed(judge(3, [run({ prompts: [prompt], learner: [withExt] }), run({ prompts: ["base"] })], { extensions: ["x"], skills: ["y"] }))).toEqual([]);
  });

  it("没进系统提示时，照清单说多半是哪儿不对：Pi 不认的键（F31）、清单只列了一类、一类都没列；不信任时漏进去的也报", () => {
    const notes = (manifest: unknown, p = "base", learner: LearnerExtension[] = []): string[] => failed(judge(3, [run({ prompts: [p], learner }), run({ prompts: ["base"] })], manifest)).map((f) => f.text);
    expect(notes({ skills: ["./skills"], resources: ["AGENTS.md"] })[0]).toMatch(/resources 不是 Pi 认的键[\s\S]*没列 extensions[\s\S]*F31/);
    expect(notes({})[0]).toMatch(/一类资源都没列/);
    expect(notes({ extensions: ["./src/project-notes.ts"] }, `${AGENTS_TEXT}`, [withExt])[0]).toMatch(/清单列了 extensions，没列 skills/);
    expect(notes({ extensions: ["x"], skills: ["y"] }, prompt, [{ ...withExt, events: [] }]).length).toBe(0);
    expect(notes({ extensions: ["x"], skills: ["y"] }, SKILL.description + SKILL.name, [{ ...withExt, events: [] }])[0]).toMatch(/没订阅 before_agent_start|订阅的是/);
    const leaky = failed(judge(3, [run({ prompts: [prompt], learner: [withExt] }), run({ prompts: [prompt] })], { extensions: ["x"], skills: ["y"] }));
    expect(leaky.map((f) => f.name)).toEqual(["项目不被信任时：两样都不在系统提示里"]);
  });
});

describe("两边的不同和报告", () => {
  it("差异表的行（F1、F5）、两边各自的措辞、表外的不同，各归各的", () => {
    const mini = (text: string): FidelityTrace => dialogue(["call_1"], [result("call_1", true, text)]).slice(1);
    const explained = explainRun(exercise(2), run({ history: dialogue(["call_1"], [result("call_1", true, "删除 x 需要人来确认")]) }), { label: "", history: mini("blocked: 删除 x 需要人来确认"), prompts: [] });
    expect(explained.map((e) => (e.kind === "row" ? e.id : e.kind))).toEqual(["F1", "F5"]);
    const worded = explainRun(exercise(1), run({ history: dialogue(["call_1"], [result("call_1", true, "outside")]) }), { label: "", history: mini("no such file"), prompts: [] });
    expect(worded.map((e) => e.kind)).toEqual(["row", "wording"]);
    const leaked = explainRun(exercise(1), run({ history: dialogue(["call_1"], [result("call_1", false, OUTSIDE_TEXT)]) }), { label: "", history: mini("no such file"), prompts: [] });
    expect(leaked.map((e) => e.kind)).toEqual(["row", "unlisted"]);
  });

  it("并排时先按消息的种类对齐：Pi 开头多出的 system 对着空白", () => {
    const rows = align([{ role: "system" }, { role: "user", text: "a" }], [{ role: "user", text: "b" }]);
    expect(rows.map(([p, m]) => [p?.role, m?.role])).toEqual([["system", undefined], ["user", "user"]]);
  });

  it("报告是给学习者的：没有维护者的命令、调用栈和颜色；--check 不打印对话", () => {
    const ex = exercise(1);
    const piRun = run({ learner: [READ_TOOL], history: dialogue(["call_1"], [result("call_1", false, OUTSIDE_TEXT)]) });
    const requirements = judge(1, [piRun]);
    const outcome: GraduationOutcome = { ex, target: TARGET, shown: "practice/graduation/1-tool.ts", pi: { node: "v24.22.3", runs: [piRun] }, mini: [], requirements, differences: [], ok: false };
    const full = formatGraduation(outcome);
    for (const banned of MAINTAINER_TEXT) expect(full).not.toMatch(banned);
    expect(full).toContain("同一段对话");
    expect(formatGraduation(outcome, { check: true })).not.toContain("同一段对话");
    expect(formatGraduation({ ...outcome, pi: { node: "?", error: "boom" } })).toContain("是检查自己出了岔子");
    // 维护者的命令整词才算：演示项目的「pnpm test」不算，「npm test」「npm run gen:api」算
    const caught = (text: string): boolean => MAINTAINER_TEXT.some((re) => re.test(text));
    expect([caught("提交前先跑 pnpm test"), caught("跑 npm test"), caught("npm run gen:api")]).toEqual([false, true, true]);
  });
});

describe("跑 Pi 一侧的 Node", () => {
  it("Pi 1.6.0 要 22.19 以上；用不了课程的 Node 24、自己的又太老时，直说要装什么；自己的够新就用它", () => {
    expect(["v20.20.2", "22.18.9", "22.19.0", "v24.22.3", "23.0.0"].map(nodeRunsPi)).toEqual([false, false, true, true, true]);
    const said: string[] = [];
    const old = chooseNode((l) => void said.push(l), "v20.20.2", false);
    expect(old).toEqual({ problem: expect.stringMatching(/要 Node 22\.19\.0 以上，你的是 v20\.20\.2[\s\S]*只有 Linux x64 的[\s\S]*Node 24 LTS/) });
    expect(chooseNode((l) => void said.push(l), "v24.1.0", false)).toEqual({ node: process.execPath });
    expect(said).toEqual([]);
  });
});
