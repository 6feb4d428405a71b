// 真实模型模式的设置：全部来自环境变量。缺了就一次说清缺哪几个，不猜默认值；密钥从不出现在任何输出里。
import { DEFAULT_MAX_TURNS, type ProjectTrust } from "../s12_packages/code.ts";

/** 读哪些环境变量。 */
export const ENV = {
  baseUrl: "MINI_PI_BASE_URL",
  apiKey: "MINI_PI_API_KEY",
  model: "MINI_PI_MODEL",
  timeoutMs: "MINI_PI_TIMEOUT_MS",
  totalTimeoutMs: "MINI_PI_TOTAL_TIMEOUT_MS",
  maxTurns: "MINI_PI_MAX_TURNS",
  trust: "MINI_PI_TRUST",
} as const;

/**
 * 空闲超时：离上一个字节最多等多久。本地模型在 CPU 上读长提示、思考型模型想事情，头一个字可能要等一两分钟；
 * 之后只要字节不断（保活注释也算），就一直等下去。
 */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** 可选变量的默认值（undefined 是不设就不限）。live/README.md 的变量表由测试逐项对照这里。 */
export const DEFAULTS = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  totalTimeoutMs: undefined,
  maxTurns: DEFAULT_MAX_TURNS,
  trust: "untrusted",
} as const;

export type LiveConfig = {
  /** OpenAI 兼容接口的地址，到 /v1 为止。请求发到它后面接 /chat/completions 的地址。 */
  baseUrl: string;
  /** 没有就不发 Authorization 头（只允许本机地址）。 */
  apiKey: string | undefined;
  model: string;
  /** 空闲超时（毫秒）：离上一个字节多久算超时。 */
  timeoutMs: number;
  /** 一次请求从发出到读完的总时长上限（毫秒）；undefined 是不限。 */
  totalTimeoutMs: number | undefined;
  /** 工具循环最多问模型几次（s04 的 maxTurns）。 */
  maxTurns: number;
  trust: ProjectTrust;
};

export type ConfigResult = { ok: true; config: LiveConfig } | { ok: false; problems: string[] };

/** 本机地址：localhost、127.x.x.x、::1。本机上的 Ollama、llama.cpp 一般不要密钥。 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** 给人看的地址：只留协议、主机、路径，去掉可能夹带凭据的用户名密码和查询串。 */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/** 服务器地址：得是 http(s)，不夹带用户名密码。不合格就记一条问题，交回 undefined。 */
function parseBaseUrl(raw: string | undefined, problems: string[]): URL | undefined {
  if (raw === undefined) {
    problems.push(`${ENV.baseUrl} 没有设置：OpenAI 兼容接口的地址，写到 /v1 为止，如 http://127.0.0.1:11434/v1（Ollama）或 https://api.deepseek.com/v1`);
    return undefined;
  }
  let base: URL;
  try {
    base = new URL(raw);
  } catch {
    problems.push(`${ENV.baseUrl} 不是 http(s) 地址：${displayUrl(raw)}`);
    return undefined;
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    problems.push(`${ENV.baseUrl} 不是 http(s) 地址：${displayUrl(raw)}`);
    return undefined;
  }
  if (base.username !== "" || base.password !== "") {
    problems.push(`${ENV.baseUrl} 里不要夹带用户名密码，密钥放在 ${ENV.apiKey}`);
    return undefined;
  }
  return base;
}

/** 正整数设置（超时、次数）：没设交回 undefined；设得不对记一条问题，也交回 undefined。 */
function parsePositive(name: string, raw: string | undefined, unit: string, problems: string[]): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (/^\d+$/.test(raw) && Number.isSafeInteger(value) && value > 0) return value;
  problems.push(`${name} 要是正整数（${unit}），现在是 "${raw}"`);
  return undefined;
}

/** 从环境变量读设置。空字符串当没设。问题按变量顺序列出，每条都说清该怎么设。 */
export function readLiveConfig(env: Record<string, string | undefined>): ConfigResult {
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const problems: string[] = [];
  const rawBase = get(ENV.baseUrl);
  const base = parseBaseUrl(rawBase, problems);

  const model = get(ENV.model);
  if (model === undefined) problems.push(`${ENV.model} 没有设置：模型名，如 qwen2.5-coder:7b（Ollama）或 deepseek-chat`);

  const apiKey = get(ENV.apiKey);
  if (apiKey === undefined && (base === undefined ? rawBase === undefined : !isLoopback(base))) {
    problems.push(`${ENV.apiKey} 没有设置：连本机以外的服务器必须有密钥（本机地址 localhost / 127.0.0.1 可以不设）`);
  }

  const positive = (name: string, unit: string): number | undefined => parsePositive(name, get(name), unit, problems);
  const timeoutMs = positive(ENV.timeoutMs, "毫秒") ?? DEFAULTS.timeoutMs;
  const totalTimeoutMs = positive(ENV.totalTimeoutMs, "毫秒") ?? DEFAULTS.totalTimeoutMs;
  const maxTurns = positive(ENV.maxTurns, "次") ?? DEFAULTS.maxTurns;

  const rawTrust = get(ENV.trust) ?? DEFAULTS.trust;
  if (rawTrust !== "trusted" && rawTrust !== "untrusted") {
    problems.push(`${ENV.trust} 只能是 trusted 或 untrusted，现在是 "${rawTrust}"`);
  }

  if (problems.length > 0 || base === undefined || model === undefined) return { ok: false, problems };
  return {
    ok: true,
    config: {
      baseUrl: base.href,
      apiKey,
      model,
      timeoutMs,
      totalTimeoutMs,
      maxTurns,
      trust: rawTrust === "trusted" ? "trusted" : "untrusted",
    },
  };
}
