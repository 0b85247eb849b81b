package com.example.coursescheduling.service;

import com.example.coursescheduling.model.*;
import org.springframework.stereotype.Service;

import java.util.*;

/** Places course offerings into classrooms and weekly time slots without conflicts. */
@Service
public class SchedulingService {
    private final CatalogService db;

    public SchedulingService(CatalogService db) {
        this.db = db;
    }

    /** Why a placement is impossible, or null when it is allowed. */
    private String conflict(Offering o, Classroom room, int day, int period) {
        if (o.maxCapacity != null && room.capacity != null && room.capacity < o.maxCapacity) {
            return "classroom " + room.id + " holds " + room.capacity + " students, offering needs " + o.maxCapacity;
        }
        for (SchedulingConstraint c : db.constraints.all()) {
            if (o.teacherId.equals(c.teacherId) && "UNAVAILABLE".equals(c.type) && c.dayOfWeek == day
                    && (c.period == null || c.period == period)) {
                return "teacher " + o.teacherId + " is unavailable at " + TimeSlot.label(day, period);
            }
        }
        for (ScheduleEntry e : db.entries.all()) {
            if (e.offeringId.equals(o.id) || !e.termId.equals(o.termId) || e.dayOfWeek != day || e.period != period) {
                continue;
            }
            if (e.classroomId.equals(room.id)) {
                return "classroom " + room.id + " is already used at " + TimeSlot.label(day, period);
            }
            if (e.teacherId.equals(o.teacherId)) {
                return "teacher " + o.teacherId + " already teaches at " + TimeSlot.label(day, period);
            }
            if (e.majorIds != null && o.majorIds != null && !Collections.disjoint(e.majorIds, o.majorIds)) {
                return "a student group of this offering already has a class at " + TimeSlot.label(day, period);
            }
        }
        return null;
    }

    private ScheduleEntry place(Offering o, Classroom room, int day, int period) {
        for (ScheduleEntry e : db.entries.all()) {
            if (e.offeringId.equals(o.id)) db.entries.remove(e.id);
        }
        ScheduleEntry e = new ScheduleEntry();
        e.id = db.entries.nextId();
        e.offeringId = o.id;
        e.termId = o.termId;
        e.courseId = o.courseId;
        e.courseName = db.courses.find(o.courseId).map(c -> c.name).orElse(null);
        e.teacherId = o.teacherId;
        e.teacherName = db.teachers.find(o.teacherId).map(t -> t.name).orElse(null);
        e.classroomId = room.id;
        e.classroomName = room.name;
        e.majorIds = new ArrayList<>(o.majorIds == null ? List.of() : o.majorIds);
        e.dayOfWeek = day;
        e.period = period;
        e.timeSlot = TimeSlot.label(day, period);
        db.entries.put(e.id, e);
        return e;
    }

    private boolean scheduled(Long offeringId) {
        return db.entries.all().stream().anyMatch(e -> e.offeringId.equals(offeringId));
    }

    /**
     * Auto-schedules every not yet scheduled offering of the term. Larger offerings go first; each takes the
     * smallest classroom big enough and the first free slot, trying the teacher's PREFERRED slots first.
     */
    public Map<String, Object> autoSchedule(Long termId) {
        synchronized (db.lock) {
            if (termId == null) throw ApiException.badRequest("termId is required");
            CatalogService.get(db.terms, termId, "Term");
            List<Offering> todo = new ArrayList<>();
            for (Offering o : db.offerings.all()) {
                if (termId.equals(o.termId) && !scheduled(o.id)) todo.add(o);
            }
            todo.sort(Comparator.comparing((Offering o) -> o.maxCapacity == null ? 0 : o.maxCapacity).reversed()
                    .thenComparing(o -> o.id));
            List<Classroom> rooms = new ArrayList<>(db.classrooms.all());
            rooms.sort(Comparator.comparing((Classroom c) -> c.capacity == null ? 0 : c.capacity)
                    .thenComparing(c -> c.id));
            int scheduledCount = 0;
            List<Long> failed = new ArrayList<>();
            for (Offering o : todo) {
                if (tryPlace(o, rooms)) scheduledCount++;
                else failed.add(o.id);
            }
            String status = failed.isEmpty() ? "SUCCESS" : scheduledCount > 0 ? "PARTIAL" : "FAILED";
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("status", status);
            out.put("termId", termId);
            out.put("scheduledCount", scheduledCount);
            out.put("failedCount", failed.size());
            out.put("failedOfferingIds", failed);
            return out;
        }
    }

    private boolean tryPlace(Offering o, List<Classroom> rooms) {
        List<TimeSlot> slots = new ArrayList<>(TimeSlot.all());
        Set<String> preferred = new HashSet<>();
        for (SchedulingConstraint c : db.constraints.all()) {
            if (o.teacherId.equals(c.teacherId) && "PREFERRED".equals(c.type)) {
                for (TimeSlot s : slots) {
                    if (s.dayOfWeek() == c.dayOfWeek && (c.period == null || c.period == s.period())) {
                        preferred.add(s.label());
                    }
                }
            }
        }
        slots.sort(Comparator.comparing((TimeSlot s) -> preferred.contains(s.label()) ? 0 : 1));
        for (TimeSlot s : slots) {
            for (Classroom room : rooms) {
                if (conflict(o, room, s.dayOfWeek(), s.period()) == null) {
                    place(o, room, s.dayOfWeek(), s.period());
                    return true;
                }
            }
        }
        return false;
    }

    /** Manually assigns or moves an offering; conflicts are refused with 409. */
    public Map<String, Object> manual(Long offeringId, Long classroomId, Integer day, Integer period) {
        synchronized (db.lock) {
            if (offeringId == null) throw ApiException.badRequest("offeringId is required");
            if (classroomId == null) throw ApiException.badRequest("classroomId is required");
            if (!TimeSlot.valid(day, period)) {
                throw ApiException.badRequest("dayOfWeek must be 1-" + TimeSlot.DAYS + " and period 1-" + TimeSlot.PERIODS);
            }
            Offering o = CatalogService.get(db.offerings, offeringId, "Offering");
            Classroom room = CatalogService.get(db.classrooms, classroomId, "Classroom");
            String why = conflict(o, room, day, period);
            if (why != null) throw ApiException.conflict(why);
            ScheduleEntry e = place(o, room, day, period);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("entry", e);
            return out;
        }
    }

    public void unschedule(Long offeringId) {
        synchronized (db.lock) {
            CatalogService.get(db.offerings, offeringId, "Offering");
            for (ScheduleEntry e : db.entries.all()) {
                if (e.offeringId.equals(offeringId)) db.entries.remove(e.id);
            }
        }
    }

    private List<ScheduleEntry> select(java.util.function.Predicate<ScheduleEntry> p, Long termId) {
        return db.entries.all().stream()
                .filter(p)
                .filter(e -> termId == null || termId.equals(e.termId))
                .sorted(Comparator.comparing((ScheduleEntry e) -> e.dayOfWeek).thenComparing(e -> e.period)
                        .thenComparing(e -> e.id))
                .toList();
    }

    public List<ScheduleEntry> byTerm(Long termId) {
        synchronized (db.lock) {
            CatalogService.get(db.terms, termId, "Term");
            return select(e -> true, termId);
        }
    }

    public List<ScheduleEntry> byTeacher(Long teacherId, Long termId) {
        synchronized (db.lock) {
            CatalogService.get(db.teachers, teacherId, "Teacher");
            return select(e -> teacherId.equals(e.teacherId), termId);
        }
    }

    public List<ScheduleEntry> byClassroom(Long classroomId, Long termId) {
        synchronized (db.lock) {
            CatalogService.get(db.classrooms, classroomId, "Classroom");
            return select(e -> classroomId.equals(e.classroomId), termId);
        }
    }

    public List<ScheduleEntry> byMajor(Long majorId, Long termId) {
        synchronized (db.lock) {
            CatalogService.get(db.majors, majorId, "Major");
            return select(e -> e.majorIds != null && e.majorIds.contains(majorId), termId);
        }
    }
}
