package com.example.coursescheduling.service;

import com.example.coursescheduling.model.*;
import org.springframework.stereotype.Service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Basic data (terms, classrooms, departments, majors, teachers, courses, offerings, constraints), in memory. */
@Service
public class CatalogService {
    final Object lock = new Object();
    final Table<Term> terms = new Table<>();
    final Table<Classroom> classrooms = new Table<>();
    final Table<Department> departments = new Table<>();
    final Table<Major> majors = new Table<>();
    final Table<Teacher> teachers = new Table<>();
    final Table<Course> courses = new Table<>();
    final Table<Offering> offerings = new Table<>();
    final Table<SchedulingConstraint> constraints = new Table<>();
    final Table<ScheduleEntry> entries = new Table<>();

    // ---------- helpers ----------
    static String requireName(String name, String what) {
        if (name == null || name.isBlank()) {
            throw ApiException.badRequest(what + " name is required");
        }
        return name.trim();
    }

    static void requirePositive(Integer value, String field, boolean required) {
        if (value == null) {
            if (required) throw ApiException.badRequest(field + " is required");
            return;
        }
        if (value <= 0) throw ApiException.badRequest(field + " must be positive");
    }

    static <T> T get(Table<T> table, Long id, String what) {
        return table.find(id).orElseThrow(() -> ApiException.notFound(what, id));
    }

    static void requireRef(Table<?> table, Long id, String field) {
        if (id == null) throw ApiException.badRequest(field + " is required");
        if (!table.exists(id)) throw ApiException.badRequest(field + " " + id + " does not exist");
    }

    public static Map<String, Object> deleted(Long id) {
        return Map.of("success", true, "id", id);
    }

    // ---------- terms ----------
    public Term createTerm(Term in) {
        synchronized (lock) {
            Term t = new Term();
            applyTerm(t, in);
            t.id = terms.nextId();
            terms.put(t.id, t);
            return t;
        }
    }

    private void applyTerm(Term t, Term in) {
        t.name = requireName(in.name, "term");
        if (in.startDate != null && in.endDate != null && in.endDate.isBefore(in.startDate)) {
            throw ApiException.badRequest("endDate must not be before startDate");
        }
        t.startDate = in.startDate;
        t.endDate = in.endDate;
    }

    public List<Term> listTerms() {
        synchronized (lock) { return terms.all(); }
    }

    public Term getTerm(Long id) {
        synchronized (lock) { return get(terms, id, "Term"); }
    }

    public Term updateTerm(Long id, Term in) {
        synchronized (lock) {
            Term t = get(terms, id, "Term");
            Term copy = new Term();
            applyTerm(copy, in);
            t.name = copy.name; t.startDate = copy.startDate; t.endDate = copy.endDate;
            return t;
        }
    }

    /** Deleting a term removes its offerings and their schedule entries with it. */
    public void deleteTerm(Long id) {
        synchronized (lock) {
            get(terms, id, "Term");
            for (Offering o : offerings.all()) {
                if (id.equals(o.termId)) removeOffering(o.id);
            }
            terms.remove(id);
        }
    }

    // ---------- classrooms ----------
    public Classroom createClassroom(Classroom in) {
        synchronized (lock) {
            Classroom c = new Classroom();
            applyClassroom(c, in);
            c.id = classrooms.nextId();
            classrooms.put(c.id, c);
            return c;
        }
    }

    private void applyClassroom(Classroom c, Classroom in) {
        String name = requireName(in.name, "classroom");
        requirePositive(in.capacity, "capacity", true);
        c.name = name;
        c.capacity = in.capacity;
        c.type = in.type == null || in.type.isBlank() ? "NORMAL" : in.type.trim().toUpperCase();
    }

    public List<Classroom> listClassrooms() {
        synchronized (lock) { return classrooms.all(); }
    }

    public Classroom getClassroom(Long id) {
        synchronized (lock) { return get(classrooms, id, "Classroom"); }
    }

    public Classroom updateClassroom(Long id, Classroom in) {
        synchronized (lock) {
            Classroom c = get(classrooms, id, "Classroom");
            Classroom copy = new Classroom();
            applyClassroom(copy, in);
            c.name = copy.name; c.capacity = copy.capacity; c.type = copy.type;
            for (ScheduleEntry e : entries.all()) {
                if (id.equals(e.classroomId)) e.classroomName = c.name;
            }
            return c;
        }
    }

    /** Deleting a classroom unschedules the classes placed in it. */
    public void deleteClassroom(Long id) {
        synchronized (lock) {
            get(classrooms, id, "Classroom");
            for (ScheduleEntry e : entries.all()) {
                if (id.equals(e.classroomId)) entries.remove(e.id);
            }
            classrooms.remove(id);
        }
    }

    // ---------- departments ----------
    public Department createDepartment(Department in) {
        synchronized (lock) {
            Department d = new Department();
            d.name = requireName(in.name, "department");
            d.id = departments.nextId();
            departments.put(d.id, d);
            return d;
        }
    }

    public List<Department> listDepartments() {
        synchronized (lock) { return departments.all(); }
    }

    public Department getDepartment(Long id) {
        synchronized (lock) { return get(departments, id, "Department"); }
    }

    public Department updateDepartment(Long id, Department in) {
        synchronized (lock) {
            Department d = get(departments, id, "Department");
            d.name = requireName(in.name, "department");
            return d;
        }
    }

    /** A department still referenced by teachers, courses or majors cannot be deleted (409). */
    public void deleteDepartment(Long id) {
        synchronized (lock) {
            get(departments, id, "Department");
            boolean used = teachers.all().stream().anyMatch(t -> id.equals(t.departmentId))
                    || courses.all().stream().anyMatch(c -> id.equals(c.departmentId))
                    || majors.all().stream().anyMatch(m -> id.equals(m.departmentId));
            if (used) throw ApiException.conflict("department " + id + " still has teachers, courses or majors");
            departments.remove(id);
        }
    }

    // ---------- majors (student groups) ----------
    public Major createMajor(Major in) {
        synchronized (lock) {
            Major m = new Major();
            applyMajor(m, in);
            m.id = majors.nextId();
            majors.put(m.id, m);
            return m;
        }
    }

    private void applyMajor(Major m, Major in) {
        String name = requireName(in.name, "major");
        if (in.departmentId != null) requireRef(departments, in.departmentId, "departmentId");
        m.name = name;
        m.departmentId = in.departmentId;
    }

    public List<Major> listMajors() {
        synchronized (lock) { return majors.all(); }
    }

    public Major getMajor(Long id) {
        synchronized (lock) { return get(majors, id, "Major"); }
    }

    public Major updateMajor(Long id, Major in) {
        synchronized (lock) {
            Major m = get(majors, id, "Major");
            Major copy = new Major();
            applyMajor(copy, in);
            m.name = copy.name; m.departmentId = copy.departmentId;
            return m;
        }
    }

    public void deleteMajor(Long id) {
        synchronized (lock) {
            get(majors, id, "Major");
            for (Offering o : offerings.all()) o.majorIds.remove(id);
            for (ScheduleEntry e : entries.all()) {
                if (e.majorIds != null) e.majorIds.remove(id);
            }
            majors.remove(id);
        }
    }

    // ---------- teachers ----------
    public Teacher createTeacher(Teacher in) {
        synchronized (lock) {
            Teacher t = new Teacher();
            applyTeacher(t, in);
            t.id = teachers.nextId();
            teachers.put(t.id, t);
            return t;
        }
    }

    private void applyTeacher(Teacher t, Teacher in) {
        String name = requireName(in.name, "teacher");
        if (in.departmentId != null) requireRef(departments, in.departmentId, "departmentId");
        t.name = name;
        t.departmentId = in.departmentId;
    }

    public List<Teacher> listTeachers() {
        synchronized (lock) { return teachers.all(); }
    }

    public Teacher getTeacher(Long id) {
        synchronized (lock) { return get(teachers, id, "Teacher"); }
    }

    public Teacher updateTeacher(Long id, Teacher in) {
        synchronized (lock) {
            Teacher t = get(teachers, id, "Teacher");
            Teacher copy = new Teacher();
            applyTeacher(copy, in);
            t.name = copy.name; t.departmentId = copy.departmentId;
            for (ScheduleEntry e : entries.all()) {
                if (id.equals(e.teacherId)) e.teacherName = t.name;
            }
            return t;
        }
    }

    /** A teacher who still teaches offerings cannot be deleted (409); their constraints go with them. */
    public void deleteTeacher(Long id) {
        synchronized (lock) {
            get(teachers, id, "Teacher");
            if (offerings.all().stream().anyMatch(o -> id.equals(o.teacherId))) {
                throw ApiException.conflict("teacher " + id + " still teaches course offerings");
            }
            for (SchedulingConstraint c : constraints.all()) {
                if (id.equals(c.teacherId)) constraints.remove(c.id);
            }
            teachers.remove(id);
        }
    }

    // ---------- courses ----------
    public Course createCourse(Course in) {
        synchronized (lock) {
            Course c = new Course();
            applyCourse(c, in);
            c.id = courses.nextId();
            courses.put(c.id, c);
            return c;
        }
    }

    private void applyCourse(Course c, Course in) {
        String name = requireName(in.name, "course");
        requirePositive(in.credits, "credits", false);
        if (in.departmentId != null) requireRef(departments, in.departmentId, "departmentId");
        c.name = name;
        c.credits = in.credits;
        c.departmentId = in.departmentId;
    }

    public List<Course> listCourses() {
        synchronized (lock) { return courses.all(); }
    }

    public Course getCourse(Long id) {
        synchronized (lock) { return get(courses, id, "Course"); }
    }

    public Course updateCourse(Long id, Course in) {
        synchronized (lock) {
            Course c = get(courses, id, "Course");
            Course copy = new Course();
            applyCourse(copy, in);
            c.name = copy.name; c.credits = copy.credits; c.departmentId = copy.departmentId;
            for (ScheduleEntry e : entries.all()) {
                if (id.equals(e.courseId)) e.courseName = c.name;
            }
            return c;
        }
    }

    /** A course that still has offerings cannot be deleted (409). */
    public void deleteCourse(Long id) {
        synchronized (lock) {
            get(courses, id, "Course");
            if (offerings.all().stream().anyMatch(o -> id.equals(o.courseId))) {
                throw ApiException.conflict("course " + id + " still has offerings");
            }
            courses.remove(id);
        }
    }

    // ---------- offerings ----------
    public Offering createOffering(Offering in) {
        synchronized (lock) {
            Offering o = new Offering();
            applyOffering(o, in);
            o.id = offerings.nextId();
            offerings.put(o.id, o);
            return o;
        }
    }

    private void applyOffering(Offering o, Offering in) {
        requireRef(courses, in.courseId, "courseId");
        requireRef(terms, in.termId, "termId");
        requireRef(teachers, in.teacherId, "teacherId");
        requirePositive(in.maxCapacity, "maxCapacity", false);
        List<Long> majorIds = new ArrayList<>();
        if (in.majorIds != null) {
            for (Long m : in.majorIds) {
                requireRef(majors, m, "majorIds");
                if (!majorIds.contains(m)) majorIds.add(m);
            }
        }
        o.courseId = in.courseId;
        o.termId = in.termId;
        o.teacherId = in.teacherId;
        o.maxCapacity = in.maxCapacity;
        o.majorIds = majorIds;
    }

    public List<Offering> listOfferings(Long termId) {
        synchronized (lock) {
            return offerings.all().stream().filter(o -> termId == null || termId.equals(o.termId)).toList();
        }
    }

    public Offering getOffering(Long id) {
        synchronized (lock) { return get(offerings, id, "Offering"); }
    }

    /** Updating an offering drops its current placement (it has to be scheduled again). */
    public Offering updateOffering(Long id, Offering in) {
        synchronized (lock) {
            Offering o = get(offerings, id, "Offering");
            Offering copy = new Offering();
            applyOffering(copy, in);
            o.courseId = copy.courseId; o.termId = copy.termId; o.teacherId = copy.teacherId;
            o.maxCapacity = copy.maxCapacity; o.majorIds = copy.majorIds;
            for (ScheduleEntry e : entries.all()) {
                if (id.equals(e.offeringId)) entries.remove(e.id);
            }
            return o;
        }
    }

    public void deleteOffering(Long id) {
        synchronized (lock) {
            get(offerings, id, "Offering");
            removeOffering(id);
        }
    }

    private void removeOffering(Long id) {
        for (ScheduleEntry e : entries.all()) {
            if (id.equals(e.offeringId)) entries.remove(e.id);
        }
        offerings.remove(id);
    }

    // ---------- constraints ----------
    public SchedulingConstraint createConstraint(SchedulingConstraint in) {
        synchronized (lock) {
            requireRef(teachers, in.teacherId, "teacherId");
            if (in.dayOfWeek == null || in.dayOfWeek < 1 || in.dayOfWeek > 7) {
                throw ApiException.badRequest("dayOfWeek must be between 1 and 7");
            }
            if (in.period != null && (in.period < 1 || in.period > TimeSlot.PERIODS)) {
                throw ApiException.badRequest("period must be between 1 and " + TimeSlot.PERIODS);
            }
            String type = in.type == null || in.type.isBlank() ? "UNAVAILABLE" : in.type.trim().toUpperCase();
            if (!type.equals("UNAVAILABLE") && !type.equals("PREFERRED")) {
                throw ApiException.badRequest("type must be UNAVAILABLE or PREFERRED");
            }
            SchedulingConstraint c = new SchedulingConstraint();
            c.teacherId = in.teacherId;
            c.dayOfWeek = in.dayOfWeek;
            c.period = in.period;
            c.type = type;
            c.id = constraints.nextId();
            constraints.put(c.id, c);
            return c;
        }
    }

    public List<SchedulingConstraint> listConstraints(Long teacherId) {
        synchronized (lock) {
            return constraints.all().stream()
                    .filter(c -> teacherId == null || teacherId.equals(c.teacherId)).toList();
        }
    }

    public SchedulingConstraint getConstraint(Long id) {
        synchronized (lock) { return get(constraints, id, "Constraint"); }
    }

    public void deleteConstraint(Long id) {
        synchronized (lock) {
            get(constraints, id, "Constraint");
            constraints.remove(id);
        }
    }
}
