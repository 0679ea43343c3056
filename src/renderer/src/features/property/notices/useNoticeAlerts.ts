import type { ToastMessageOptions } from 'primevue/toast';
import { useToast } from 'primevue/usetoast';
import { onMounted, onUnmounted } from 'vue';
import { useRouter } from 'vue-router';
import type { Notice } from '@shared/notices';
import { useAppStore } from '@renderer/api/appStore';
import { notifyInBackground } from '@renderer/lib/notifications';
import { useNoticesStore } from './noticesStore';

type NoticeToast = ToastMessageOptions & { noticeHotelId?: string };

const TOAST_LIFE_MS = 10_000;
/** Where a notice is read: Property → Notices of its property. */
export const noticesRoute = (hotelId: string) => `/property/${encodeURIComponent(hotelId)}/notices`;

/**
 * A new Airbnb notice while the app is open: a toast in the window and, in browser mode with the window in the
 * background, the browser notification the inbox uses (if the owner allowed them). Either opens Property → Notices
 * of that property. Returns the handler for the app's Toast clicks.
 */
export function useNoticeAlerts() {
  const toast = useToast();
  const router = useRouter();
  const app = useAppStore();
  const notices = useNoticesStore();
  const openNotices = (hotelId: string) => router.push(noticesRoute(hotelId));

  function alert(notice: Notice) {
    const title = `Airbnb notice · ${notice.title}`;
    const message: NoticeToast = {
      severity: 'warn',
      summary: title,
      detail: notice.subtitle || `About Airbnb account ${notice.accountId}.`,
      life: TOAST_LIFE_MS,
      styleClass: 'toast--opens',
      noticeHotelId: notice.hotelId,
    };
    toast.add(message);
    notifyInBackground(
      app.info?.host,
      title,
      { body: notice.subtitle, tag: `innkeeper-notice-${notice.id}` },
      () => void openNotices(notice.hotelId),
    );
  }

  let stop: (() => void) | undefined;
  onMounted(() => (stop = notices.onAdded(alert)));
  onUnmounted(() => stop?.());

  /** A click on a notice's toast (not on its close button) opens the notices of its property. */
  function onToastClick(event: { originalEvent: Event; message: ToastMessageOptions }) {
    const message = event.message as NoticeToast;
    if (message.noticeHotelId === undefined || (event.originalEvent.target as Element).closest('button')) return;
    toast.remove(message);
    void openNotices(message.noticeHotelId);
  }
  return { onToastClick };
}
