// 性质测试（fast-check），R4 每道边界的第 1 类：抛出任何值都能被描述（s01 起，每道边界随它的零件出现；Output 抛错 s10 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { expect, it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import { type Feature, has } from "../../../tooling/features.ts";
import type { Hooks, LessonModule, Msg, ProviderLike, TestAgent, ToolLike } from "../../../tooling/lesson.ts";
import { text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { expectSoundHistory, makeQuietly, returnedArb, thrownArb } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, ordinaryTurnAfter, params } from "../common.ts";

type Boundary = "provider" | "provider mid-stream" | "output" | "handler" | "beforeToolCall" | "afterToolCall" | "loader" | "extension" | "listener" | "command" | "render";
const boundariesOf = (id: string): Boundary[] => {
  // 每道边界随哪个零件出现；没写零件的从第一课起就有
  const all: [Boundary, Feature | undefined][] = [
    ["provider", undefined],
    ["output", "safeOutput"],
    ["provider mid-stream", "stream"],
    ["handler", "toolLoop"],
    ["beforeToolCall", "hooks"],
    ["afterToolCall", "hooks"],
    ["loader", "resources"],
    ["extension", "extensions"],
    ["listener", "extensions"],
    ["command", "extensions"],
    ["render", "modes"],
  ];
  return all.filter(([, feature]) => feature === undefined || has(id, feature)).map(([b]) => b);
};

/** 拼一个 agent，在 boundary 这道边界上调用 throwIt：provider、handler、钩子、Output、render、loader。 */
function agentThrowingAt(id: string, mod: LessonModule, boundary: Boundary, throwIt: () => never, handlerCalls: string[]): { agent: TestAgent; messages: () => Msg[] } {
  const tool: ToolLike = {
    spec: { name: "a", description: "a", input: { text: "text" } },
    handler: (input) => {
      handlerCalls.push(input.text);
      return boundary === "handler" ? throwIt() : `a:${input.text}`;
    },
  };
  let provider: ProviderLike;
  if (boundary === "provider") provider = !has(id, "stream") ? { complete: async () => throwIt() } : { stream: () => throwIt() };
  else if (boundary === "provider mid-stream") {
    provider = {
      async *stream() {
        yield { type: "message_start" };
        yield { type: "text_delta", text: "half" };
        throwIt();
      },
    };
  } else {
    provider = scriptedProvider(id, (_input, k) => (has(id, "toolLoop") && k === 0 ? toolUse("", { id: "c1", name: "a", input: { text: "x" } }) : text("done"))).provider;
  }
  const hooks: Hooks = {
    beforeToolCall: () => (boundary === "beforeToolCall" ? throwIt() : { type: "allow" }),
    afterToolCall: (_c, r) => (boundary === "afterToolCall" ? throwIt() : r),
  };
  const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "tools") ? [tool] : [], hooks });
  if (boundary === "output") {
    agent.output = { log: throwIt };
    if (has(id, "modes")) agent.mode = new mod.PrintMode(agent.output);
  }
  if (boundary === "render") agent.mode = { render: throwIt };
  if (boundary === "loader") agent.loader = { load: throwIt };
  return { agent, messages };
}

/** 装上在 boundary 这道边界（装扩展、监听、命令）抛错的扩展；返回 use() 有没有抛出来。 */
function installThrowingAt(agent: TestAgent, boundary: Boundary, throwIt: () => never): boolean {
  try {
    if (boundary === "extension") {
      agent.runtime?.use(function boom(api) {
        api.registerTool(echoTool("x").tool);
        throwIt();
      });
    }
    if (boundary === "listener") agent.runtime?.use((api) => api.on("message", throwIt));
    if (boundary === "command") agent.runtime?.use((api) => api.registerCommand({ name: "c", run: throwIt }));
    return false;
  } catch {
    return true;
  }
}

type Outcome = { reply: Msg; results: Msg[]; errors: string[]; agent: TestAgent; handlerCalls: string[] };

/** 每道边界抛错之后该看到的：错误写在哪、写成什么样。 */
function expectOutcome(boundary: Boundary, { reply, results, errors, agent, handlerCalls }: Outcome): void {
  switch (boundary) {
    case "provider":
      fastExpect(reply.stopReason).toBe("error");
      fastExpect(reply.content).toMatch(/^error: /);
      break;
    case "provider mid-stream":
      expect(reply).toMatchObject({ stopReason: "error", content: expect.stringMatching(/^half\nerror: /) });
      break;
    case "handler":
      fastExpect(results).toHaveLength(1);
      fastExpect(results[0].content).toMatch(/^error: /);
      fastExpect(results[0].content, "a handler's error is not labelled as a hook failure").not.toMatch(/^error: hook failed/);
      break;
    case "beforeToolCall":
      fastExpect(results.map((m) => m.content.startsWith("error: hook failed: "))).toEqual([true]);
      fastExpect(handlerCalls, "a failing hook never lets the call run").toEqual([]);
      break;
    case "afterToolCall":
      fastExpect(results.map((m) => m.content.startsWith("error: hook failed: "))).toEqual([true]);
      fastExpect(handlerCalls).toEqual(["x"]);
      break;
    case "loader":
      expect(reply).toMatchObject({ stopReason: "error", content: expect.stringMatching(/^error: could not start the turn: /) });
      break;
    case "extension":
      fastExpect(errors.map((e) => e.startsWith('error: extension "boom" failed to load: '))).toEqual([true]);
      fastExpect(agent.registry?.getSpecs().map((s) => s.name), "nothing of the failed extension is installed").not.toContain("x");
      break;
    case "listener":
      fastExpect(errors.length).toBeGreaterThan(0);
      for (const e of errors) fastExpect(e).toMatch(/^error: handler for "message" failed: /);
      break;
    case "command":
      fastExpect(agent.runtime?.runCommand("c")).toMatch(/^error: command "c" failed: /);
      break;
    case "render":
      fastExpect(errors.filter((e) => e.startsWith("error: mode failed to render: "))).toHaveLength(1);
      break;
    case "output":
      break;
  }
}

forLessonsFrom("s01", (id, load) => {
  it("R4 第 1 类：describeError（s03 起还有 describeValue）对任何值都回一段文字，从不抛错", async () => {
    const mod = await load();
    await fc.assert(
      fc.property(returnedArb, (h) => {
        fastExpect(typeof mod.describeError(makeQuietly(h))).toBe("string");
        if (has(id, "stream")) fastExpect(typeof mod.describeValue(makeQuietly(h))).toBe("string");
      }),
      params,
    );
  });

  it(`R4 第 1 类：在任何一道边界（${boundariesOf(id).join("、")}）抛出任何值，这一轮都照常结束，错误写成文字，之后照常`, async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...boundariesOf(id)), thrownArb, async (boundary, h) => {
        const throwIt = (): never => {
          throw h.make();
        };
        const handlerCalls: string[] = [];
        const { agent, messages } = agentThrowingAt(id, mod, boundary, throwIt, handlerCalls);
        fastExpect(installThrowingAt(agent, boundary, throwIt), "use() never throws").toBe(false);
        const reply = await mod.runOneTurn(agent, "go");
        fastExpect(messages().at(-1), "the reply is stored last").toEqual(reply);
        const errors = agent.runtime?.errors ?? [];
        for (const e of errors) fastExpect(e).toMatch(/^error: /);
        expectOutcome(boundary, { reply, results: messages().filter((m) => m.role === "toolResult"), errors, agent, handlerCalls });
        if (!["provider", "provider mid-stream", "loader"].includes(boundary)) expect(reply).toMatchObject({ stopReason: "stop" });
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});
