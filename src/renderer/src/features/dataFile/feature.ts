import { defineFeature, SHELL_BANNER } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';
import DataFileBanner from './DataFileBanner.vue';
import { useDataFileStore } from './dataFileStore';

/** The data file's health: a banner on every screen while Innkeeper cannot store what Su sends. */
export const dataFileFeature = defineFeature({
  name: 'dataFile',
  sections: [section(SHELL_BANNER, { component: DataFileBanner })],
  shell() {
    const dataFile = useDataFileStore();
    return { load: () => dataFile.load(), listen: () => dataFile.listen() };
  },
});
