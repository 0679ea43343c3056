import { useToast } from 'primevue/usetoast';
import type { ToastMessageOptions } from 'primevue/toast';
import { onMounted, onUnmounted, watch } from 'vue';
import { useRouter } from 'vue-router';
import type { NewMessageEvent } from '@shared/inbox';
import { useAppStore } from '@renderer/api/appStore';
import { notifyInBackground } from '@renderer/lib/notifications';
import { useInboxStore } from './inboxStore';

type AlertToast = ToastMessageOptions & { threadId?: number };

/** A burst of messages must not bury the window: the newest few stay, one per conversation. */
const MAX_TOASTS = 3;
const TOAST_LIFE_MS = 8000;

/**
 * A new guest message gets the owner's attention wherever they are in the app: a toast in the window, and in
 * browser mode a browser notification when the window is in the background (if the owner allowed them).
 * Either one opens the thread when clicked. Returns the handler for the app's Toast clicks.
 */
export function useNewMessageAlerts() {
  const toast = useToast();
  const router = useRouter();
  const app = useAppStore();
  const inbox = useInboxStore();
  const openThread = (threadId: number) => router.push(`/inbox/${threadId}`);

  // The alert toasts on screen, oldest first.
  let shown: AlertToast[] = [];
  function dismiss(which: (t: AlertToast) => boolean) {
    for (const t of shown.filter(which)) toast.remove(t);
    shown = shown.filter((t) => !which(t));
  }
  function showToast(m: NewMessageEvent, guest: string) {
    dismiss((t) => t.threadId === m.threadId);
    while (shown.length >= MAX_TOASTS) {
      const oldest = shown[0];
      dismiss((t) => t === oldest);
    }
    const message: AlertToast = {
      severity: 'info',
      summary: `New message from ${guest} · ${m.channelName}`,
      detail: m.preview,
      life: TOAST_LIFE_MS,
      styleClass: 'toast--opens',
      threadId: m.threadId,
    };
    toast.add(message);
    shown.push(message);
    setTimeout(() => (shown = shown.filter((t) => t !== message)), TOAST_LIFE_MS);
  }
  // Opening a conversation answers its toasts.
  watch(
    () => inbox.openId,
    (id) => dismiss((t) => t.threadId === id),
  );

  function notify(m: NewMessageEvent) {
    const guest = m.guestName ?? 'A guest';
    const watching = document.visibilityState === 'visible' && document.hasFocus();
    // The owner is looking at this very conversation: the message is already on screen.
    if (!(watching && inbox.openId === m.threadId)) showToast(m, guest);
    notifyInBackground(
      app.info?.host,
      `${guest} · ${m.channelName}`,
      { body: m.preview, tag: `innkeeper-thread-${m.threadId}` },
      () => void openThread(m.threadId),
    );
  }

  let stop: (() => void) | undefined;
  onMounted(() => (stop = inbox.onNewMessage(notify)));
  onUnmounted(() => stop?.());

  /** A click on a new-message toast (not on its close button) opens the thread. */
  function onToastClick(event: { originalEvent: Event; message: ToastMessageOptions }) {
    const message = event.message as AlertToast;
    if (message.threadId === undefined || (event.originalEvent.target as Element).closest('button')) return;
    toast.remove(message);
    void openThread(message.threadId);
  }
  return { onToastClick };
}
