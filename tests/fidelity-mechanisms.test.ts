// 保真对照（npm run fidelity）的机制剧本（s07–s12）的比较逻辑：用手写的观察证明它真的会报错。
// 这里不装、不跑 Pi。机制剧本的 Pi 一侧照 `npm run fidelity` 真实跑出的样子手写（只留要用的几条事实），mini 一侧写对的和写错的各几份。
// 循环剧本的比较在 tests/fidelity-compare.test.ts。
import { describe, expect, it } from "vitest";
import { asRequest, compareObservations, type Entry, type FidelityTrace, normalisePi, type Observation } from "../fidelity/compare.ts";
import { PI_FACT_DIFFERENCES } from "../fidelity/listed-differences/fact-rows.ts";
import { PI_TRACE_DIFFERENCES } from "../fidelity/listed-differences/trace-rows.ts";
import { ABSENT, treeObservation } from "../fidelity/observe.ts";

const text = (t: string): { type: string; text: string }[] => [{ type: "text", text: t }];
const toolCall = (id: string): { type: string; id: string } => ({ type: "toolCall", id });

describe("保真对照的机制剧本：对的 mini 观察只带着列出的行过得了，错的报出来", () => {
  const compare = (scenario: string, pi: Observation, mini: Observation) => compareObservations(scenario, pi, mini, PI_TRACE_DIFFERENCES, PI_FACT_DIFFERENCES);
  /** 观察里的一条事实换掉（改错用）。 */
  const withFact = (o: Observation, name: string, lines: string[]): Observation => ({ ...o, facts: { ...o.facts, [name]: lines } });
  const withTrace = (o: Observation, name: string, f: (t: FidelityTrace) => FidelityTrace): Observation => ({ ...o, traces: { ...o.traces, [name]: { ...o.traces[name], trace: f(o.traces[name].trace) } } });

  // s07：回到第一轮的回答另起一支。Pi 的请求里助手消息带着调用（F13），课程的不带
  const user = (text: string): Entry => ({ role: "user", text });
  const said = (text: string, calls: string[] = [], stopReason = calls.length > 0 ? "toolUse" : "stop"): Entry => ({ role: "assistant", stopReason, text, calls });
  const result = (id: string, text: string): Entry => ({ role: "toolResult", toolCallId: id, isError: false, text });
  const CONVERSATION = [user("看看 README.md"), said("我读一下。", ["call_1"]), result("call_1", "# todo-app"), said("这是一个待办清单项目。"), user("用什么包管理器？"), said("用 pnpm。")];
  const tree = (over: Partial<Parameters<typeof treeObservation>[0]> = {}, sentCalls = true): Observation => {
    const entries = [...CONVERSATION, user("换个问题：有测试吗？"), said("有，pnpm test。")];
    const path = [0, 1, 2, 3, 6, 7].map((i) => entries[i]);
    return treeObservation({
      entries,
      parents: [null, 0, 1, 2, 3, 4, 3, 6],
      leaf: 7,
      path,
      sent: asRequest(path).map((e) => (e.role === "assistant" && !sentCalls ? { ...e, calls: [] } : e)),
      missing: "报错，叶子没动",
      ...over,
    });
  };
  const PI_TREE = tree();
  const MINI_TREE = tree({}, false);

  it("s07 tree-branch-back：只有 F13（模型看不到自己要过的调用）", () => {
    expect(compare("tree-branch-back", PI_TREE, MINI_TREE)).toEqual({ used: ["F13"], problems: [] });
  });

  it("s07：父节点挂错、路径上丢了一条、moveTo 不存在的 id 时叶子动了，各报一条", () => {
    expect(compare("tree-branch-back", PI_TREE, tree({ parents: [null, 0, 1, 2, 3, 4, 5, 6] }, false)).problems).toEqual(["「父节点」pi #6 ← #3 ≠ mini #6 ← #5"]);
    const lost = tree({ path: [0, 1, 2, 6, 7].map((i) => [...CONVERSATION, user("换个问题：有测试吗？"), said("有，pnpm test。")][i]) }, false);
    expect(compare("tree-branch-back", PI_TREE, lost).problems).toEqual(['「当前路径」pi #3 assistant[stop] "这是一个待办清单项目。" 在 mini 里没有']);
    expect(compare("tree-branch-back", PI_TREE, tree({ missing: "报错，但叶子动了" }, false)).problems).toEqual(["「换到不存在的节点」pi 报错，叶子没动 ≠ mini 报错，但叶子动了"]);
  });

  it("s07 F14 只认重新开始时新问题挂在根下，挂在别的节点下不算", () => {
    const pi = tree({ parents: [null, 0, 1, 2, 3, 4, null, 6], path: [user("从头问"), said("待办清单。")], sent: asRequest([user("从头问"), said("待办清单。")]) });
    const mini = (parent: number) =>
      tree({ parents: [null, 0, 1, 2, 3, 4, parent, 6], path: [CONVERSATION[0], user("从头问"), said("待办清单。")], sent: asRequest([CONVERSATION[0], user("从头问"), said("待办清单。")]) }, false);
    expect(compare("tree-restart", pi, mini(0))).toEqual({ used: ["F14"], problems: [] });
    expect(compare("tree-restart", pi, mini(1)).problems.length).toBeGreaterThan(0);
  });

  it("s07 F15 只去掉 Pi 补的 'No result provided'，课程丢了的真结果不算", () => {
    const sent = (calls: string[], extra: Entry[]): Observation => ({
      facts: {},
      traces: { 发给模型的消息: { on: "requests", pairing: false, trace: asRequest([CONVERSATION[0], said("我读一下。", calls), ...extra, user("算了")]) } },
    });
    const pi = sent(["call_1"], [{ role: "toolResult", toolCallId: "call_1", isError: true, text: "No result provided" }]);
    expect(compare("tree-branch-to-tool-call", pi, sent([], []))).toEqual({ used: ["F13", "F15"], problems: [] });
    const piReal = sent(["call_1"], [result("call_1", "# todo-app")]);
    expect(compare("tree-branch-to-tool-call", piReal, sent([], [])).problems).toEqual(['「发给模型的消息」pi #2 toolResult call_1 ok "# todo-app" 在 mini 里没有']);
  });

  // s08：同一批资料进系统提示
  const PI_PROMPT: Observation = {
    facts: {
      "进了提示的项目说明（按位置）": ["project/AGENTS.md"],
      技能: ["release：只有索引（名字和说明）", "review：只有索引（名字和说明）"],
      技能条目带文件位置: ["release：带", "review：带"],
      追加的话: ["在提示里"],
      各部分的先后: ["追加的话", "项目说明", "技能索引"],
      工作目录写在提示里: ["是"],
    },
    traces: {},
  };
  const MINI_PROMPT = withFact(withFact(withFact(PI_PROMPT, "技能条目带文件位置", ["release：不带", "review：不带"]), "各部分的先后", ["项目说明", "技能索引", "追加的话"]), "工作目录写在提示里", ["否"]);

  it("s08 prompt-resources：只有 F19（先后）、F20（技能不带位置）、F21（没有工作目录）", () => {
    expect(compare("prompt-resources", PI_PROMPT, MINI_PROMPT)).toEqual({ used: ["F19", "F20", "F21"], problems: [] });
  });

  it("s08：技能全文进了提示、AGENTS.md 丢了、先后不一样，都报出来", () => {
    expect(compare("prompt-resources", PI_PROMPT, withFact(MINI_PROMPT, "技能", ["release：全文", "review：只有索引（名字和说明）"])).problems).toEqual([
      "「技能」pi release：只有索引（名字和说明） ≠ mini release：全文",
    ]);
    expect(compare("prompt-resources", PI_PROMPT, withFact(MINI_PROMPT, "进了提示的项目说明（按位置）", [])).problems).toEqual(["「进了提示的项目说明（按位置）」pi project/AGENTS.md 在 mini 里没有"]);
    expect(compare("prompt-resources", PI_PROMPT, withFact(MINI_PROMPT, "各部分的先后", ["技能索引", "项目说明", "追加的话"])).problems.length).toBeGreaterThan(0);
  });

  // s09：一个扩展、一轮
  const piHistory: FidelityTrace = normalisePi([
    { role: "system" },
    { role: "user", content: "数一下 README.md" },
    { role: "assistant", content: [...text("我读一下，再数一下。"), toolCall("call_1"), toolCall("call_2")], stopReason: "toolUse" },
    { role: "toolResult", toolCallId: "call_1", isError: false, content: text("# todo-app [checked]") },
    { role: "toolResult", toolCallId: "call_2", isError: false, content: text("README.md 共 10 个字符 [checked]") },
    { role: "assistant", content: text("README.md 是标题，共 10 个字符。"), stopReason: "stop" },
  ]);
  const events = (withRoles: boolean): string[] => [
    ...(withRoles ? ['stats: message[system] ""', 'stats: message[user] "数一下 README.md"'] : []),
    ...[
      ["assistant", "我读一下，再数一下。"],
      ["toolResult", "# todo-app [checked]"],
      ["toolResult", "README.md 共 10 个字符 [checked]"],
      ["assistant", "README.md 是标题，共 10 个字符。"],
    ].map(([role, t]) => `stats: message${withRoles ? `[${role}]` : ""} ${JSON.stringify(t)}`),
    "stats: done",
  ];
  const extension = (withRoles: boolean, history: FidelityTrace): Observation => ({
    facts: { 模型能用的工具: ["read", "wc"], 命令: ["stats → stats 扩展在工作"], 钩子看到的调用: ["read", "wc"], 监听者看到的事件: events(withRoles), 记下的错误: ["0"] },
    traces: { 历史: { on: "history", pairing: true, trace: history } },
  });
  const PI_EXT = extension(true, piHistory);
  const MINI_EXT = extension(false, piHistory.slice(1));

  it("s09 ext-one-turn：只有 F1（Pi 的系统消息）和 F22（Pi 的监听看得到角色、系统和用户消息）", () => {
    expect(compare("ext-one-turn", PI_EXT, MINI_EXT)).toEqual({ used: ["F1", "F22"], problems: [] });
  });

  it("s09：扩展的工具绕过了钩子、丢了一个事件、多记一条错，都报出来", () => {
    expect(compare("ext-one-turn", PI_EXT, withFact(MINI_EXT, "钩子看到的调用", ["read"])).problems).toEqual(["「钩子看到的调用」pi wc 在 mini 里没有"]);
    expect(compare("ext-one-turn", PI_EXT, withFact(MINI_EXT, "监听者看到的事件", events(false).filter((l) => l !== "stats: done"))).problems).toEqual(["「监听者看到的事件」pi stats: done 在 mini 里没有"]);
    expect(compare("ext-one-turn", PI_EXT, withFact(MINI_EXT, "记下的错误", ["1"])).problems).toEqual(["「记下的错误」pi 0 ≠ mini 1"]);
  });

  it("s09 F22 要 Pi 的角色：mini 的监听也看到了用户消息，照样报出来", () => {
    const extra = withFact(MINI_EXT, "监听者看到的事件", ['stats: message "数一下 README.md"', ...events(false)]);
    expect(compare("ext-one-turn", PI_EXT, extra).problems).toEqual(['「监听者看到的事件」mini stats: message "数一下 README.md" 在 pi 里没有']);
  });

  it("s09 F24 只认改了名的命令，mini 跑了第二个扩展的命令不算", () => {
    const pi = withFact(PI_EXT, "命令", ["stats → 没有运行任何命令"]);
    expect(compare("ext-name-clash", pi, withFact(MINI_EXT, "命令", ["stats → stats 扩展在工作"])).used).toContain("F24");
    expect(compare("ext-name-clash", pi, withFact(MINI_EXT, "命令", ["stats → copycat 的 stats", "x"])).problems.length).toBeGreaterThan(0);
  });

  // s10：JSON 模式、出错
  const json = (pi: boolean): Observation => ({
    facts: {
      每行都能按JSON解析: ["是"],
      开头的会话头: [pi ? "有" : "没有"],
      "事件种类（按第一次出现）": pi ? ["session", "agent_start", "message_start", "message_end", "agent_end", "agent_settled"] : ["message", "done"],
      读得出的消息: pi ? ['message[user] "看看 README.md"', 'message[assistant] "这是一个待办清单项目。"'] : ['message "这是一个待办清单项目。"'],
      最后一个事件: [pi ? "agent_settled" : "done"],
      "原样的 U+2028 / U+2029": ["没有"],
    },
    traces: {},
  });

  it("s10 mode-json：只有 F25（开头）、F26（事件种类）、F27（角色）；读不出的一行、丢了的消息都报出来", () => {
    expect(compare("mode-json", json(true), json(false))).toEqual({ used: ["F25", "F26", "F27"], problems: [] });
    expect(compare("mode-json", json(true), withFact(json(false), "每行都能按JSON解析", ["否"])).problems).toEqual(["「每行都能按JSON解析」pi 是 ≠ mini 否"]);
    expect(compare("mode-json", json(true), withFact(json(false), "读得出的消息", [])).problems).toEqual(['「读得出的消息」pi message "这是一个待办清单项目。" 在 mini 里没有']);
  });

  it("s10 mode-error：F29、F30 只消掉它们描述的样子：丢了错误消息、mini 问了三次，都报出来", () => {
    const pi: Observation = { facts: { 标准输出: [], 错误说明写在哪: ["标准错误"], 退出码: ["1"], 问了模型几次: ["2"] }, traces: {} };
    const mini: Observation = { facts: { 标准输出: ["error: provider unavailable (503)"], 错误说明写在哪: ["标准输出"], 退出码: [ABSENT], 问了模型几次: ["1"] }, traces: {} };
    expect(compare("mode-error", pi, mini)).toEqual({ used: ["F29", "F30"], problems: [] });
    // F29 要三条事实都是它描述的样子才适用；错误说明不见了，整行不适用，三处不同都报出来
    expect(compare("mode-error", pi, withFact(mini, "错误说明写在哪", ["哪儿都没有"])).problems).toContain("「错误说明写在哪」pi 标准错误 ≠ mini 哪儿都没有");
    expect(compare("mode-error", pi, withFact(mini, "问了模型几次", ["3"])).problems).toEqual(["「问了模型几次」pi 2 ≠ mini 3"]);
  });

  // s11：不信任的项目
  const trust = (agents: string[], mine: string, release: string, extension: string[]): Observation => ({
    facts: { "进了提示的项目说明（按位置）": agents, 技能: [`mine：${mine}`, `release：${release}`], 追加的话: ["不在提示里"], 项目扩展登记的工具: extension },
    traces: {},
  });
  const PI_UNTRUSTED = trust(["project/AGENTS.md"], "只有索引（名字和说明）", "不在提示里", []);

  it("s11 trust-untrusted：只有 F31（AGENTS.md）、F32（用户自己的技能）、F33（没有项目扩展）", () => {
    expect(compare("trust-untrusted", PI_UNTRUSTED, trust([], "不在提示里", "不在提示里", [ABSENT]))).toEqual({ used: ["F31", "F32", "F33"], problems: [] });
  });

  it("s11：项目的技能进了不信任时的提示，报出来", () => {
    expect(compare("trust-untrusted", PI_UNTRUSTED, trust([], "不在提示里", "只有索引（名字和说明）", [ABSENT])).problems).toEqual([
      "「技能」pi release：不在提示里 ≠ mini release：只有索引（名字和说明）",
    ]);
  });

  // s12：坏包
  const pkg = (tools: string[], version: string, skill: string, problems: string): Observation => ({
    facts: { 模型能用的工具: tools, 命令: [`version → ${version}`, "changelog → 没有运行任何命令"], 技能: [`commit：${skill}`], 报告的问题: [problems] },
    traces: {},
  });
  const PI_BROKEN = pkg(["commit_message", "read"], "git-helpers 1.0.0", "只有索引（名字和说明）", "0");

  it("s12 package-broken：F35 只认整包拒绝，装上一半的不算", () => {
    expect(compare("package-broken", PI_BROKEN, pkg(["read"], "没有运行任何命令", "不在提示里", "1"))).toEqual({ used: ["F35"], problems: [] });
    const half = pkg(["commit_message", "read"], "没有运行任何命令", "不在提示里", "1");
    expect(compare("package-broken", PI_BROKEN, half).problems.length).toBeGreaterThan(0);
  });

  it("只有一边有的事实或轨迹，报出来", () => {
    const { 记下的错误: _, ...rest } = MINI_EXT.facts;
    expect(compare("ext-one-turn", PI_EXT, { ...MINI_EXT, facts: rest }).problems).toEqual(["「记下的错误」只有 pi 有"]);
    expect(compare("ext-one-turn", PI_EXT, { ...MINI_EXT, traces: {} }).problems).toEqual(["「历史」只有 pi 有"]);
  });

  it("mini 的历史丢了一个工具结果，按循环的行报出来（F1 遮不住它）", () => {
    const lost = withTrace(MINI_EXT, "历史", (t) => t.filter((e) => !(e.role === "toolResult" && e.toolCallId === "call_2")));
    const { problems } = compare("ext-one-turn", PI_EXT, lost);
    expect(problems).toContain("「历史」mini 配对 #1：调用 call_2 没有结果");
  });
});
