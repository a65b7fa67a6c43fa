import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../main/version.js';
import { runProcess } from './support/processes.js';

/** The GitHub workflows run only on GitHub's runners; a broken one must not land unnoticed. */

const WORKFLOWS = join(PROJECT_ROOT, '.github/workflows');
const VALIDATOR = join(PROJECT_ROOT, 'node_modules/@action-validator/cli/cli.mjs');
const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));
const scratch = mkdtempSync(join(tmpdir(), 'retail-workflows-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const validate = (file: string) => runProcess(process.execPath, [VALIDATOR, file], { env: { NO_COLOR: '1' } });

describe('.github/workflows', () => {
  it('holds the CI and the release workflow', () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
  });

  it.each(files)('%s is a valid GitHub Actions workflow (action-validator)', async (file) => {
    const result = await validate(join(WORKFLOWS, file));
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('the check catches a broken workflow', async () => {
    const broken = join(scratch, 'broken.yml');
    writeFileSync(broken, readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8').replace('    steps:', '    stepz:'));
    const result = await validate(broken);
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toContain("Additional property 'stepz' is not allowed");
  });

  it('the release builds, tests, packages and checks on ubuntu and windows, and keeps installers, screenshot and reports', () => {
    const release = parse(readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8'));
    const job = release.jobs.installers;
    expect(job.strategy.matrix.include.map((m: { os: string }) => m.os)).toEqual(['ubuntu-24.04', 'windows-2022']);
    const steps: string = job.steps.map((s: { run?: string; uses?: string }) => s.run ?? s.uses).join('\n');
    for (const step of ['npm ci', 'npm run build', 'npx vitest run', 'npm run dist', 'packaging/check-update-metadata.mjs', 'packaging/check-packaged-app.mjs', 'actions/upload-artifact']) {
      expect(steps).toContain(step);
    }
  });

  it('the release signs, and with signing configured refuses to keep an unsigned or wrongly signed build', () => {
    const release = parse(readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8'));
    type Step = { name: string; run?: string; if?: string; env?: Record<string, string>; with?: { path?: string } };
    const steps: Step[] = release.jobs.installers.steps;
    const at = (text: string) => steps.findIndex((s) => s.run?.includes(text));
    const windowsCheck = steps.find((s) => s.run?.includes('Get-AuthenticodeSignature'))!;
    expect(windowsCheck.if).toContain("steps.signing.outputs.windows == 'yes'");
    expect(steps.find((s) => s.run?.includes('npm run dist'))!.env).toEqual({ WIN_CSC_LINK: '${{ secrets.WIN_CSC_LINK }}', WIN_CSC_KEY_PASSWORD: '${{ secrets.WIN_CSC_KEY_PASSWORD }}' });
    expect(steps[at('sign-update.mjs sign')]!.env).toEqual({ UPDATE_SIGNING_KEY: '${{ secrets.UPDATE_SIGNING_KEY }}' });
    expect(at('sign-update.mjs verify')).toBeGreaterThan(at('sign-update.mjs sign'));
    const upload = steps.findIndex((s) => s.with?.path?.includes('release/*.sig'));
    expect(upload).toBeGreaterThan(at('sign-update.mjs verify'));
    expect(upload).toBeGreaterThan(steps.indexOf(windowsCheck));
    // Secrets reach only the steps that sign, never the whole job (tests, npm ci).
    expect(release.jobs.installers.env).not.toHaveProperty('UPDATE_SIGNING_KEY');
    expect(release.jobs.installers.env).not.toHaveProperty('WIN_CSC_LINK');
  });
});
