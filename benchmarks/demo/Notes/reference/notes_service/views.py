import threading
from collections import Counter

from django.utils import timezone
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

NOTES = {}
LOCK = threading.Lock()
SEQ = {"next": 1}


class NoteSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=120)
    content = serializers.CharField(allow_blank=True, required=False, default="")
    tags = serializers.ListField(child=serializers.CharField(max_length=30), required=False, default=list)

    def validate_tags(self, tags):
        return list(dict.fromkeys(tags))


def not_found():
    return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)


class Health(APIView):
    def get(self, request):
        return Response({"status": "ok"})


class NoteList(APIView):
    def get(self, request):
        notes = list(NOTES.values())
        tag = request.query_params.get("tag")
        if tag is not None:
            notes = [n for n in notes if tag in n["tags"]]
        return Response(notes)

    def post(self, request):
        ser = NoteSerializer(data=request.data)
        if not ser.is_valid():
            return Response(ser.errors, status=status.HTTP_400_BAD_REQUEST)
        now = timezone.now().isoformat().replace("+00:00", "Z")
        with LOCK:
            note = {"id": SEQ["next"], **ser.validated_data, "created_at": now, "updated_at": now}
            NOTES[note["id"]] = note
            SEQ["next"] += 1
        return Response(note, status=status.HTTP_201_CREATED)


class NoteDetail(APIView):
    def get(self, request, note_id):
        if note_id not in NOTES:
            return not_found()
        return Response(NOTES[note_id])

    def patch(self, request, note_id):
        if note_id not in NOTES:
            return not_found()
        ser = NoteSerializer(data=request.data, partial=True)
        if not ser.is_valid():
            return Response(ser.errors, status=status.HTTP_400_BAD_REQUEST)
        note = NOTES[note_id]
        note.update({k: v for k, v in ser.validated_data.items() if k in request.data})
        note["updated_at"] = timezone.now().isoformat().replace("+00:00", "Z")
        return Response(note)

    def delete(self, request, note_id):
        if NOTES.pop(note_id, None) is None:
            return not_found()
        return Response(status=status.HTTP_204_NO_CONTENT)


class TagList(APIView):
    def get(self, request):
        counts = Counter(tag for note in NOTES.values() for tag in note["tags"])
        return Response([{"tag": t, "count": counts[t]} for t in sorted(counts)])
