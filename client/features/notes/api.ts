// The admin notepad: list, create, update, delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Note, NoteInput } from '#common/notes.ts';
import { api } from '#client/lib/api-client.ts';

export const notesKey = ['admin', 'notes'] as const;

export function useNotes() {
  return useQuery({
    queryKey: notesKey,
    queryFn: ({ signal }) => api.get<Note[]>('/admin/notes', { signal }),
  });
}

export function useCreateNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NoteInput) => api.post<Note>('/admin/notes', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey }),
  });
}

export function useUpdateNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: NoteInput }) =>
      api.put<Note>(`/admin/notes/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey }),
  });
}

export function useDeleteNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/admin/notes/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey }),
  });
}
