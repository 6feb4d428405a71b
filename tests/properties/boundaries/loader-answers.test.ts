// 性质测试（fast-check），R4 每道边界的第 7 类：一轮前后调用的一切都在 R4 里面（s08 起的 loader；它抛错的情形在第 1 类，thrown-values.test.ts）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { makeAgent } from "../../../tooling/assemble-agent.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { expectSoundHistory, thrownArb } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, okProvider, ordinaryTurnAfter } from "../common.ts";

forLessonsFrom("resources", (id, load) => {
  it("R4 第 7 类：loader.load() 交回任何东西：要么这一轮照常，要么以 \"error: could not start the turn: …\" 收尾；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(thrownArb, async (h) => {
        const { agent, messages } = makeAgent(id, mod, { provider: okProvider(id, "fine") });
        agent.loader = { load: () => h.make() as [] };
        const reply = await mod.runOneTurn(agent, "go");
        if (reply.stopReason === "error") fastExpect(reply.content).toMatch(/^error: could not start the turn: /);
        else fastExpect(reply).toEqual({ role: "assistant", content: "fine", stopReason: "stop" });
        fastExpect(messages().at(-1)).toEqual(reply);
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});
