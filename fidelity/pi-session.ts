// 照剧本说话的 pi-coding-agent 会话：资料、扩展、包都经 DefaultResourceLoader 进 AgentSession，模型换成照剧本出事件的流
// （scripted-model.ts 的 streamReply），不联网。机制剧本（pi-mechanisms.ts）和毕业练习（pi-graduation.ts）都用它开会话，
// 所以「怎样把 Pi 1.6.0 开成一个离线、确定的会话」只写在这一处。要 Node ≥ 22.19，只在 Node 24 的子进程里加载。

import { createAgentSession, type AgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager } from "@earendil-works/pi-coding-agent";
import { join } from "node:path";
import type { Reply } from "./scenarios.ts";
import { EXHAUSTED, SCRIPTED_MODEL, streamReply } from "./scripted-model.ts";

/**
 * 会话用的模型：AgentSession.prompt 先查这个 provider 有没有配好钥匙，所以挂在 Pi 认识的 openai 名下，
 * 钥匙是运行时给的假值。请求不会发出去：会话的 streamFunction 换成了照剧本出事件的流。
 */
export const SESSION_MODEL = { ...SCRIPTED_MODEL, provider: "openai" };

/** 一个会话用到的目录：工作目录和 Pi 的用户目录（auth.json、models.json、用户级的设置都在这里，剧本里是空的）。 */
export type SessionDirs = { cwd: string; agentDir: string };

export type SessionSetup = {
  dirs: SessionDirs;
  trusted: boolean;
  /** 像命令行的 -e 一样额外加载的扩展文件（不看项目信任）。 */
  extensionPaths?: string[];
  /** 用户设置里的包（本地路径）。 */
  packages?: string[];
  /**
   * 设置从哪来：memory（默认）是一份内存里的设置，只有上面的 packages；disk 照 `pi` 自己的做法读
   * <agentDir>/settings.json 和 <cwd>/.pi/settings.json（项目的那份只在信任时读）。
   */
  settings?: "memory" | "disk";
  /** 宿主自己的工具：内置的 read；false 就一个内置工具都不给。扩展登记的工具照常可用。 */
  read: boolean;
};

/**
 * 开好的会话。problems 是装载时和运行中报出来的问题（扩展装不上、警告、技能的诊断、监听抛错），每条一句话；
 * answer(n, systemPrompt) 决定模型第 n 次被问到时怎么回答，默认照 replies 的第 n 个，剧本可以换掉它。
 */
export type OpenSession = {
  session: AgentSession;
  loader: DefaultResourceLoader;
  problems: string[];
  replies: Reply[];
  answer: (n: number, systemPrompt: string) => Reply | undefined;
  /** 每次请求时模型拿到的系统提示（按请求的先后）。 */
  prompts: string[];
};

function settingsFor(setup: SessionSetup): SettingsManager {
  const options = { projectTrusted: setup.trusted };
  if (setup.settings === "disk") return SettingsManager.create(setup.dirs.cwd, setup.dirs.agentDir, options);
  return SettingsManager.inMemory({ packages: setup.packages ?? [] }, options);
}

/** 开一个会话：装资料和扩展、绑上扩展的事件、把模型换成照剧本回答的流。 */
export async function openSession(setup: SessionSetup): Promise<OpenSession> {
  const { dirs } = setup;
  const settingsManager = settingsFor(setup);
  const loader = new DefaultResourceLoader({ cwd: dirs.cwd, agentDir: dirs.agentDir, settingsManager, additionalExtensionPaths: setup.extensionPaths ?? [] });
  await loader.reload();
  const modelRuntime = await ModelRuntime.create({ authPath: join(dirs.agentDir, "auth.json"), modelsPath: join(dirs.agentDir, "models.json") });
  await modelRuntime.setRuntimeApiKey(SESSION_MODEL.provider, "scripted");
  const { session } = await createAgentSession({
    cwd: dirs.cwd,
    agentDir: dirs.agentDir,
    model: SESSION_MODEL,
    thinkingLevel: "off",
    modelRuntime,
    settingsManager,
    sessionManager: SessionManager.inMemory(dirs.cwd),
    resourceLoader: loader,
    // 内置工具只留 read（或一个不留）；扩展登记的工具照常可用
    excludeTools: setup.read ? ["bash", "edit", "write"] : ["read", "bash", "edit", "write"],
  });
  const open: OpenSession = { session, loader, problems: loadProblems(loader), replies: [], answer: (n) => open.replies[n], prompts: [] };
  await session.bindExtensions({ onError: (e) => void open.problems.push(`${e.extensionPath}（${e.event}）：${e.error}`) });
  let n = 0;
  session.agent.streamFunction = () => {
    const prompt = session.agent.state.systemPrompt;
    open.prompts.push(prompt);
    return streamReply(open.answer(n++, prompt) ?? EXHAUSTED);
  };
  return open;
}

/** 装载时报出来的问题：扩展装不上、扩展的警告、技能的诊断。 */
function loadProblems(loader: DefaultResourceLoader): string[] {
  const { errors, warnings } = loader.getExtensions();
  return [
    ...errors.map((e) => `${e.path}：${e.error}`),
    ...(warnings ?? []).map((w) => `${w.path}：${w.warning}`),
    ...loader.getSkills().diagnostics.map((d) => `${d.path ?? "技能"}：${d.message}`),
  ];
}

/** 模型这次能用的工具（按名字排）。 */
export const toolNames = (session: AgentSession): string[] => [...session.getActiveToolNames()].sort();
