// 性质测试（fast-check），R4 每道边界的第 5 类：provider 改了手上的输入，别处都不受影响（s01 起；工具清单 s02 起，快照 s06 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent } from "../../../tooling/assemble-agent.ts";
import { has } from "../../../tooling/features.ts";
import type { Event, Input, ProviderLike } from "../../../tooling/lesson.ts";
import { type Step, text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { expectSoundHistory } from "../../support/hostile.ts";
import { BOUNDARY_RUNS } from "../common.ts";

type Mutation =
  | "push message"
  | "unshift message"
  | "pop message"
  | "clear messages"
  | "edit first message"
  | "edit last message"
  | "edit a tool spec"
  | "add a tool parameter"
  | "delete a tool parameter"
  | "push a tool"
  | "clear tools"
  | "replace systemPrompt"
  | "replace arrays";
const MUTATIONS: Mutation[] = [
  "push message",
  "unshift message",
  "pop message",
  "clear messages",
  "edit first message",
  "edit last message",
  "edit a tool spec",
  "add a tool parameter",
  "delete a tool parameter",
  "push a tool",
  "clear tools",
  "replace systemPrompt",
  "replace arrays",
];
function mutate(input: Input, m: Mutation): void {
  const msgs = input.messages;
  const tools = input.tools ?? [];
  switch (m) {
    case "push message":
      msgs.push({ role: "user", content: "INJECTED" });
      break;
    case "unshift message":
      msgs.unshift({ role: "assistant", content: "INJECTED", stopReason: "stop" });
      break;
    case "pop message":
      msgs.pop();
      break;
    case "clear messages":
      msgs.length = 0;
      break;
    case "edit first message":
      if (msgs[0] !== undefined) Object.assign(msgs[0], { content: "EDITED", role: "assistant", toolCallId: "forged" });
      break;
    case "edit last message":
      if (msgs.length > 0) Object.assign(msgs[msgs.length - 1], { content: "EDITED" });
      break;
    case "edit a tool spec":
      if (tools[0] !== undefined) Object.assign(tools[0], { name: "EDITED", description: "EDITED" });
      break;
    case "add a tool parameter":
      if (tools[0] !== undefined) tools[0].input.injected = "x";
      break;
    case "delete a tool parameter":
      for (const t of tools) for (const k of Object.keys(t.input)) delete t.input[k];
      break;
    case "push a tool":
      tools.push({ name: "INJECTED", description: "", input: {} });
      break;
    case "clear tools":
      tools.length = 0;
      break;
    case "replace systemPrompt":
      input.systemPrompt = "INJECTED";
      break;
    case "replace arrays":
      input.messages = [];
      input.tools = [];
      break;
  }
}

forLessonsFrom("s01", (id, load) => {
  it("R4 第 5 类：provider 随便改它收到的输入：这一轮后面的请求、下一轮的请求、历史、registry 里的工具都和它什么都没改时一样", async () => {
    const mod = await load();
    // 同一个剧本跑两遍：一遍 provider 每次都改输入，一遍不改；provider 看到的输入（改之前记下）、历史、工具都必须一样
    const runOnce = async (mutations: Mutation[][]): Promise<unknown> => {
      const seen: Input[] = [];
      let k = 0;
      const answer = (input: Input): Step[] => {
        seen.push(structuredClone(input));
        const mine = k++;
        for (const m of mutations[mine % Math.max(1, mutations.length)] ?? []) mutate(input, m);
        if (has(id, "toolLoop") && mine % 3 !== 2) return toolUse("", { id: `c${mine}`, name: "echo", input: { text: `x${mine}` } });
        return text(`answer ${mine}`);
      };
      const provider: ProviderLike =
        !has(id, "stream")
          ? { complete: async (input) => answer(input).flatMap((s) => (s.type === "text_delta" ? [s.text] : [])).join("") }
          : {
              async *stream(input) {
                yield* answer(input) as Event[];
              },
            };
      const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "tools") ? [echoTool("echo").tool, echoTool("pair", ["a", "b"]).tool] : [] });
      await mod.runOneTurn(agent, "one");
      await mod.runOneTurn(agent, "two");
      expectSoundHistory(id, messages());
      return { seen, history: messages(), tools: agent.registry?.getSpecs() };
    };
    const reference = await runOnce([]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.subarray(MUTATIONS, { minLength: 1 }), { minLength: 1, maxLength: 4 }), async (mutations) => {
        fastExpect(await runOnce(mutations)).toEqual(reference);
      }),
      BOUNDARY_RUNS,
    );
  });
});
