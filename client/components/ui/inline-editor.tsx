// The admin lists' inline add/edit form: which row is open, its form, focus, save and delete.
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Trash2 } from 'lucide-react';
import {
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from '#common/zod.ts';
import { Button } from './button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from './card.tsx';
import { controlNear, focusedElement } from './focus-place.ts';
import { runAction } from './run-action.ts';

export interface InlineEditorMessages {
  added: string;
  updated: string;
  addFailed: string;
  updateFailed: string;
  confirmDelete: string;
  deleted: string;
  deleteFailed: string;
}

export interface InlineEditorOptions<Row, Form extends FieldValues, Input> {
  /** The form's fields checked by the shared schema (see lib/form-schema.ts). */
  schema: z.ZodType<Input, Form>;
  empty: Form;
  toForm: (row: Row) => Form;
  /** Focused when the form opens. */
  firstField: Path<Form>;
  /** Focused again when the added form closes, or when nothing else is left to focus. */
  addButton: RefObject<HTMLButtonElement | null>;
  save: (id: string | undefined, input: Input) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
  messages: InlineEditorMessages;
}

export function useInlineEditor<Row extends { id: string }, Form extends FieldValues, Input>(
  options: InlineEditorOptions<Row, Form, Input>,
) {
  const { schema, empty, toForm, firstField, addButton, save, remove, messages } = options;
  /** null: form hidden; 'new': adding; a row: editing it. */
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const form = useForm<Form, unknown, Input>({
    resolver: zodResolver<Form, unknown, Input, typeof schema>(schema),
    defaultValues: empty as DefaultValues<Form>,
  });

  // Keyboard users land in the form when it opens, and back where they opened it when it closes:
  // the row's Edit, or the add button.
  const wasOpen = useRef(false);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (editing !== null) form.setFocus(firstField);
    else if (wasOpen.current) focusOr(opener.current, addButton);
    wasOpen.current = editing !== null;
  }, [editing, form, firstField, addButton]);

  const close = () => {
    setEditing(null);
    form.reset(empty);
  };
  const openAdd = () => {
    opener.current = null;
    form.reset(empty);
    setEditing('new');
  };
  const openEdit = (row: Row) => {
    opener.current = focusedElement();
    form.reset(toForm(row));
    setEditing(row);
  };
  const submit = async (input: Input) => {
    const id = editing && editing !== 'new' ? editing.id : undefined;
    const saved = await runAction(() => save(id, input), {
      done: id ? messages.updated : messages.added,
      failed: id ? messages.updateFailed : messages.addFailed,
    });
    if (saved) close();
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.handleSubmit(submit)(event);
  const onDelete = async (row: Row) => {
    if (!window.confirm(messages.confirmDelete)) return;
    // A row next to the removed one (or before it) takes the keyboard's place.
    const tableRow = focusedElement()?.closest('tr');
    const next = tableRow ? controlNear(tableRow) : null;
    const removed = await runAction(() => remove(row.id), {
      done: messages.deleted,
      failed: messages.deleteFailed,
    });
    if (!removed) return;
    if (editing !== 'new' && editing?.id === row.id) {
      // The closing form gives the focus back to its opener: here, the neighbour.
      opener.current = next;
      close();
    } else focusOr(next, addButton);
  };
  return { editing, form, openAdd, openEdit, close, onSubmit, onDelete };
}

/** Focuses `target` while it is on the page, else the add button. */
function focusOr(target: HTMLElement | null, addButton: RefObject<HTMLButtonElement | null>) {
  (target?.isConnected ? target : addButton.current)?.focus();
}

export interface InlineEditorCardProps {
  adding: boolean;
  /** The card's heading and the form's name, adding and editing. */
  title: { add: string; edit: string };
  label: { add: string; edit: string };
  saving: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * The open form above the list: its fields, then Simpan (or Perbarui) and Batal. Escape in one of
 * its fields is Batal (not in a list that a field opened, which Escape closes first).
 */
export function InlineEditorCard(props: InlineEditorCardProps) {
  const { adding, saving } = props;
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Escape' || saving) return;
    if (!event.currentTarget.contains(event.target as Node)) return;
    event.preventDefault();
    props.onCancel();
  };
  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle>{adding ? props.title.add : props.title.edit}</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={props.onSubmit}
          onKeyDown={onKeyDown}
          noValidate
          aria-label={adding ? props.label.add : props.label.edit}
          className="grid gap-4"
        >
          {props.children}
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" loading={saving}>
              {adding ? 'Simpan' : 'Perbarui'}
            </Button>
            <Button variant="outline" onClick={props.onCancel} disabled={saving}>
              Batal
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** A row's Edit and Hapus icon buttons; each names the row it acts on. */
export function RowEditActions(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <div className="flex justify-end gap-1">
      <Button variant="ghost" size="icon-sm" aria-label={props.editLabel} onClick={props.onEdit}>
        <Pencil aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        className="text-destructive hover:bg-destructive-soft"
        aria-label={props.deleteLabel}
        disabled={props.deleting}
        onClick={props.onDelete}
      >
        <Trash2 aria-hidden />
      </Button>
    </div>
  );
}
