/**
 * The deployment files of deploy/ (docs/deploy.md) are what their tools accept: the systemd units
 * pass `systemd-analyze verify` without a warning, the nginx server block passes `nginx -t` (with a
 * throwaway certificate), and the settings file names only settings the server reads. A tool that
 * is not installed reports its test skipped, never passed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const DEPLOY = path.resolve(__dirname, '..', '..', 'deploy');
const REPO = path.resolve(DEPLOY, '..');

function installed(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

const units = fs.readdirSync(DEPLOY).filter((f) => f.endsWith('.service'));
const withSystemd = installed('systemd-analyze') ? describe : describe.skip;
const withNginx = installed('nginx') && installed('openssl') ? describe : describe.skip;

withSystemd(
  `the systemd units${installed('systemd-analyze') ? '' : ' (SKIPPED: systemd-analyze is not installed)'}`,
  () => {
    it.each(units)('%s passes systemd-analyze verify without a warning', (unit) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-units-'));
      try {
        fs.copyFileSync(path.join(DEPLOY, unit), path.join(dir, unit));
        // A template is verified as one of its instances.
        const target = path.join(dir, unit.replace('@.service', '@1.service'));
        const run = spawnSync('systemd-analyze', ['verify', target], { encoding: 'utf8' });
        const about = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.includes(dir));
        expect({ status: run.status, warnings: about }).toEqual({ status: 0, warnings: [] });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it.each(units)('%s starts files the installation has', (unit) => {
      const text = fs.readFileSync(path.join(DEPLOY, unit), 'utf8');
      const started = [...text.matchAll(/^Exec\w*=\/usr\/bin\/env node \/opt\/trustgate\/(\S+)/gm)].map((m) => m[1]!);
      expect(started.length).toBeGreaterThan(0);
      for (const file of started) {
        // bin/ is in the checkout; dist/ is what `npm run build` writes (`npm start` runs dist/src/main.js).
        if (file.startsWith('dist/'))
          expect(fs.existsSync(path.join(REPO, 'src', file.slice('dist/src/'.length).replace(/\.js$/, '.ts')))).toBe(
            true,
          );
        else expect(fs.existsSync(path.join(REPO, file))).toBe(true);
      }
    });
  },
);

withNginx(`the nginx server block${installed('nginx') ? '' : ' (SKIPPED: nginx is not installed)'}`, () => {
  it('passes nginx -t', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-nginx-'));
    try {
      const cert = path.join(dir, 'cert.pem');
      const key = path.join(dir, 'key.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=trustgate.example.com',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'ignore' },
      );
      const site = fs
        .readFileSync(path.join(DEPLOY, 'nginx.conf'), 'utf8')
        .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${cert};`)
        .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`);
      fs.writeFileSync(path.join(dir, 'site.conf'), site);
      fs.writeFileSync(
        path.join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`,
      );
      const run = spawnSync(
        'nginx',
        ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')],
        {
          encoding: 'utf8',
        },
      );
      expect({
        status: run.status,
        output: run.stderr.split('\n').filter((l) => /\[(emerg|alert|crit|error|warn)\]/.test(l)),
      }).toEqual({
        status: 0,
        output: [],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the settings file', () => {
  it('names only settings the server reads', () => {
    const names = [
      ...fs.readFileSync(path.join(DEPLOY, 'trustgate.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm),
    ].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(5);
    const dir = path.join(REPO, 'src', 'config');
    const config = fs
      .readdirSync(dir)
      .map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))
      .join('\n');
    expect(names.filter((name) => !config.includes(name) && name !== 'NODE_ENV')).toEqual([]);
  });
});
