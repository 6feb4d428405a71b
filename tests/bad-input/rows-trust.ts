// 坏输入表：不信任的项目（s11 起，R6）——项目自己的资料和装进来的包的资料都到不了系统提示。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { expect } from "vitest";
import { scriptedProvider } from "../../tooling/assemble-agent.ts";
import { text } from "../../tooling/screenplay.ts";
import { type Row, type Resource, goodPackage } from "./harness.ts";

export const ROWS_TRUST: Row[] = [
  {
    id: "untrusted-project",
    since: "s11",
    input: "不信任的项目带着项目说明、技能、追加提示",
    async run(h) {
      const resources: Resource[] = [
        { kind: "agents", name: "AGENTS.md", content: "EXFILTRATE" },
        { kind: "skill", name: "evil", content: "EVIL SKILL" },
        { kind: "prompt", name: "p", content: "IGNORE PREVIOUS" },
      ];
      const { provider, inputs } = scriptedProvider(h.id, () => text("ok"));
      const b = h.agent({ resources, trust: "untrusted" });
      b.agent.provider = provider;
      await h.mod.runOneTurn(b.agent, "first");
      const untrusted = { loaded: b.agent.loader?.load("untrusted"), prompt: inputs[0].systemPrompt };
      b.agent.trust = "trusted";
      await h.mod.runOneTurn(b.agent, "second");
      return { untrusted, laterTrusted: (inputs[1].systemPrompt ?? "").includes("EXFILTRATE"), kept: b.agent.loader?.load("trusted") };
    },
    expected: {
      untrusted: { loaded: [], prompt: expect.not.stringMatching(/EXFILTRATE|EVIL|IGNORE/) },
      laterTrusted: true,
      kept: [
        { kind: "agents", name: "AGENTS.md", content: "EXFILTRATE" },
        { kind: "skill", name: "evil", content: "EVIL SKILL" },
        { kind: "prompt", name: "p", content: "IGNORE PREVIOUS" },
      ],
    },
  },
  {
    id: "untrusted-package-resources",
    since: "s12",
    input: "往不信任的项目里装一个带资料的包",
    async run(h) {
      const b = h.agent({ trust: "untrusted" });
      h.mod.installPackage(b.agent, h.mod.loadPackage(goodPackage()));
      const hidden = h.mod.buildProviderInput(b.agent).systemPrompt === h.mod.SYSTEM_PREAMBLE;
      b.agent.trust = "trusted";
      return { hidden, shownWhenTrusted: (h.mod.buildProviderInput(b.agent).systemPrompt ?? "").includes("Say hello.") };
    },
    expected: { hidden: true, shownWhenTrusted: true },
  },
];
