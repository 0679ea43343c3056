/** Ctrl+Enter (⌘+Enter on a Mac) sends what a reply box holds; Enter alone starts a new line. */
export const isSendKey = (event: KeyboardEvent) =>
  event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing;

/** A reply box's keydown handler: the send keys run `send` (and type no new line). */
export const onSendKey = (send: () => unknown) => (event: KeyboardEvent) => {
  if (!isSendKey(event)) return;
  event.preventDefault();
  void send();
};

/** The send keys as the owner's keyboard names them. */
export const SEND_KEYS = `${/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl'}+Enter`;
