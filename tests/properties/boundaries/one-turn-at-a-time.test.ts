// 性质测试（fast-check），R4 每道边界的第 9 类：一次一轮（s04 起：一轮跨好几次请求，中途才会又来一轮）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { expect, it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import { has } from "../../../tooling/features.ts";
import type { Event, Input, Msg, ProviderLike, TestAgent, ToolLike } from "../../../tooling/lesson.ts";
import { type Step, text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { expectSoundHistory } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, ordinaryTurnAfter } from "../common.ts";

// 同一个 agent 上一轮没跑完又来一轮：这一次直接回 "error: agent is already processing a prompt"，不存、不改任何东西（D33）。
const BUSY = { role: "assistant", content: "error: agent is already processing a prompt", stopReason: "error" };
const tick = async (k: number): Promise<void> => {
  for (let i = 0; i < k; i++) await null;
};

/** 一个慢吞吞的 provider：每个事件前都让出 slowness 次，一轮要跨好些微任务；s04 起每轮先调一次工具 t。 */
function slowProvider(id: string, slowness: number): ProviderLike {
  const answer = (input: Input): Step[] => {
    const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
    return has(id, "toolLoop") && input.messages.at(-1)?.role === "user" ? toolUse("", { id: `c-${question}`, name: "t", input: {} }) : text(`re ${question}`);
  };
  if (!has(id, "stream")) {
    return {
      complete: async (input) => {
        await tick(slowness);
        return `re ${input.messages.findLast((m) => m.role === "user")?.content ?? ""}`;
      },
    };
  }
  return {
    async *stream(input) {
      for (const e of answer(input) as Event[]) {
        await tick(slowness);
        yield e;
      }
    },
  };
}

/** 历史 = 被接受的那几轮，一轮接一轮，互不交错；被拒的问题一个字都没进历史。 */
function expectTurnsInOrder(stored: Msg[], starts: number[], replies: Msg[]): void {
  const accepted = starts.map((_, i) => i).filter((i) => JSON.stringify(replies[i]) !== JSON.stringify(BUSY));
  fastExpect(accepted.length, "at least the first turn runs").toBeGreaterThan(0);
  const users = stored.filter((m) => m.role === "user").map((m) => m.content);
  expect(users, "only accepted turns are stored, each once").toEqual(expect.arrayContaining(accepted.map((i) => `q${i}`)));
  fastExpect(users).toHaveLength(accepted.length);
  for (const i of accepted) {
    const at = stored.findIndex((m) => m.role === "user" && m.content === `q${i}`);
    const next = stored.findIndex((m, j) => j > at && m.role === "user");
    const turn = stored.slice(at, next === -1 ? undefined : next);
    fastExpect(turn.at(-1), `turn q${i} ends with its own reply`).toEqual(replies[i]);
    fastExpect(turn.filter((m) => m.role === "assistant").at(-1)?.content).toBe(`re q${i}`);
  }
}

forLessonsFrom("oneTurn", (id, load) => {
  it("R4 第 9 类：任意时刻发起的几轮对话（含工具里、监听里再发起的）：历史从不交错；没跑的那几次拿到一条说明，什么都不存；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(12), { minLength: 2, maxLength: 4 }), fc.nat(4), fc.boolean(), async (starts, slowness, reenter) => {
        const nested: Promise<Msg>[] = [];
        let agentRef: TestAgent | undefined;
        const tool: ToolLike = {
          spec: { name: "t", description: "t", input: {} },
          handler: () => {
            if (reenter && agentRef !== undefined) nested.push(mod.runOneTurn(agentRef, "from a tool"));
            return "t ok";
          },
        };
        const { agent, messages } = makeAgent(id, mod, { provider: slowProvider(id, slowness), tools: has(id, "tools") ? [tool] : [] });
        agentRef = agent;
        if (reenter) agent.runtime?.use((api) => api.on("message", () => void nested.push(mod.runOneTurn(agent, "from a listener"))));
        const replies = await Promise.all(
          starts.map(async (delay, i) => {
            await tick(delay);
            return mod.runOneTurn(agent, `q${i}`);
          }),
        );
        const nestedReplies = await Promise.all(nested);
        fastExpect(nestedReplies.every((r) => JSON.stringify(r) === JSON.stringify(BUSY)), "a turn started from inside a turn is refused").toBe(true);
        expectTurnsInOrder(messages(), starts, replies);
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });

  it("R4 第 9 类：runOneTurn 收到的不是文字（从 JavaScript 调用绕过了类型）：这一轮不跑，回一条说清收到什么类型的 error，什么都不存；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.anything().filter((v) => typeof v !== "string"), async (input) => {
        const { agent, messages } = makeAgent(id, mod, { provider: scriptedProvider(id, () => text("ok")).provider });
        const reply = await mod.runOneTurn(agent, input as string);
        fastExpect(reply).toEqual({ role: "assistant", content: `error: user input must be a string, got ${typeof input}`, stopReason: "error" });
        fastExpect(messages(), "nothing is stored").toEqual([]);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});
