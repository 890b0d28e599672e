export const smtpReplies = async (_: unknown[]) => new Map<string, string>();
