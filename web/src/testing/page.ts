import { HttpTestingController } from '@angular/common/http/testing';
import type { Provider, Type } from '@angular/core';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { MatDialog } from '@angular/material/dialog';
import { Router } from '@angular/router';
import type { User } from '@usher/contracts';
import { Notifier } from '../app/core/notifier';
import { SessionStore } from '../app/core/session/session-store';
import { scriptedDialog } from './dialog';
import { aUser } from './fixtures';
import { provideTestApp } from './providers';

/** A page rendered for a spec, with what its tests drive and read. */
export interface RenderedPage<T> {
  fixture: ComponentFixture<T>;
  http: HttpTestingController;
  /** `navigate` is a spy that resolves at once (the URL does not change). */
  router: Router;
  notifier: { show: jest.Mock };
  /** What the next dialogs answer, in order (push before the click). */
  dialogAnswers: unknown[];
  /** The `data` each dialog was opened with, in order. */
  dialogData: unknown[];
  root: HTMLElement;
}

/**
 * Renders a routed page as the signed-in `user` with its route `inputs` set: the test app's
 * providers, a notifier and a scripted dialog to read, and the HTTP testing controller. The
 * set-up every page spec wrote out (issue 34).
 */
export async function renderPage<T>(
  page: Type<T>,
  options: {
    user?: Partial<User>;
    inputs?: Record<string, unknown>;
    providers?: Provider[];
    /** Runs once the providers are set, before the page is created (state it reads at start). */
    beforeCreate?: () => void;
  } = {},
): Promise<RenderedPage<T>> {
  const notifier = { show: jest.fn() };
  const dialogAnswers: unknown[] = [];
  const dialogData: unknown[] = [];
  const dialog = scriptedDialog((config) => {
    dialogData.push(config.data);
    return dialogAnswers.shift();
  });
  TestBed.configureTestingModule({
    providers: [
      ...provideTestApp(),
      { provide: Notifier, useValue: notifier },
      { provide: MatDialog, useValue: dialog },
      ...(options.providers ?? []),
    ],
  });
  TestBed.inject(SessionStore).me.set(aUser(options.user));
  const http = TestBed.inject(HttpTestingController);
  const router = TestBed.inject(Router);
  jest.spyOn(router, 'navigate').mockResolvedValue(true);
  options.beforeCreate?.();
  const fixture = TestBed.createComponent(page);
  for (const [key, value] of Object.entries(options.inputs ?? {})) {
    fixture.componentRef.setInput(key, value);
  }
  const root = fixture.nativeElement as HTMLElement;
  await fixture.whenStable();
  return { fixture, http, router, notifier, dialogAnswers, dialogData, root };
}
