export function electronMissingReason(root: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string | null;
export function electronExecutable(root: string): string;
